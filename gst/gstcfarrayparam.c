/* Element parameters that gst_cuda_filter_class_install_param () cannot
 * hold (arrays, such as cudaconvolve's kernel): the element keeps them in
 * its params struct beside the others and reads or writes them between
 * gst_cuda_filter_lock_params () and gst_cuda_filter_unlock_params (), so
 * the per-frame snapshot carries them like any other parameter. */
#include "gstcfprivate.h"

/* The base class makes the live params, every installed parameter at its
 * default, on the first get or set of one: read one if none was yet. */
static void
ensure_live_params (GstCudaFilter * self)
{
  GParamSpec **pspecs;
  guint n;

  pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (self), &n);
  for (guint i = 0; i < n; i++) {
    GType type = G_TYPE_FUNDAMENTAL (G_PARAM_SPEC_VALUE_TYPE (pspecs[i]));
    GValue v = G_VALUE_INIT;
    gboolean made;

    if (pspecs[i]->owner_type == GST_TYPE_CUDA_FILTER
        || !g_type_is_a (pspecs[i]->owner_type, GST_TYPE_CUDA_FILTER)
        || !(type == G_TYPE_BOOLEAN || type == G_TYPE_INT
            || type == G_TYPE_UINT || type == G_TYPE_DOUBLE
            || type == G_TYPE_ENUM))
      continue;
    g_value_init (&v, G_PARAM_SPEC_VALUE_TYPE (pspecs[i]));
    g_object_get_property (G_OBJECT (self), pspecs[i]->name, &v);
    g_value_unset (&v);
    GST_OBJECT_LOCK (self);
    made = PRIV (self)->live_params != NULL;
    GST_OBJECT_UNLOCK (self);
    if (made)
      break;
  }
  g_free (pspecs);
}

gpointer
gst_cuda_filter_lock_params (GstCudaFilter * self)
{
  GST_OBJECT_LOCK (self);
  if (!PRIV (self)->live_params) {
    GST_OBJECT_UNLOCK (self);
    ensure_live_params (self);
    GST_OBJECT_LOCK (self);
  }
  g_assert (PRIV (self)->live_params != NULL);
  return PRIV (self)->live_params;
}

void
gst_cuda_filter_unlock_params (GstCudaFilter * self)
{
  GST_OBJECT_UNLOCK (self);
}
