/* cudafilters: knobs of cf_bilateral's kernel choice, for its tests and
 * benchmark only (they force on a large GPU the variants that smaller ones
 * run). Not thread safe: set them while no cf_bilateral call runs. */
#ifndef CF_BILATERAL_TUNING_H
#define CF_BILATERAL_TUNING_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  /* Shared memory per block the kernels may plan with, if below the
   * device's opt-in limit; 0: the device's (64 KB on Turing, 99 KB on
   * Ampere consumer and Ada GPUs, 227 KB on the H100). */
  size_t shared_limit;
  /* Separable mode as two launches of the exact kernel with 1-D windows
   * through scratch, also where the one-kernel form fits. */
  int two_pass_separable;
  /* Separable mode for one filtered channel through the general one-kernel
   * form also where the symmetric-pairs kernel applies (radii up to 8). */
  int general_separable;
} CfBilateralTuning;

/* Replaces the knobs; all zero is the default. */
void cf_bilateral_set_tuning (const CfBilateralTuning * tuning);

#ifdef __cplusplus
}
#endif
#endif /* CF_BILATERAL_TUNING_H */
