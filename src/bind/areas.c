/* src/bind/areas.c — the one explicit list of binding areas, run in order at
 * session start: built-ins first, then the torch module, the value types,
 * and the areas of torch functions (later areas may refer to earlier ones). */
#include "bind/areas.h"

static void (*const areas[])(void) = {
    bind_builtins_init,
    bind_torch_init,
    bind_math_init,
    bind_tensor_init,
    bind_types_init,
    bind_attrs_init,
    bind_shape_init,
    bind_random_init,
    bind_printopts_init,
    bind_factory_init,
    bind_pointwise_init,
    bind_storage_init,
    bind_bessel_init,
    bind_special_init,
    bind_session_init,
    bind_join_init,
    bind_reduce_init,
    bind_exceptions_init,
    bind_sys_init,
    bind_index_init,
    bind_linalg_init,
    bind_cuda_init,
    bind_query_init,
    bind_stats_init,
    bind_linalg_lapack_init,
    bind_fft_init,
    bind_io_init,
    bind_contract_init,
    bind_nnf_init,
    bind_names_init,
    bind_autograd_init,
    bind_numpy_init,
    bind_nnf_layers_init,
    bind_linalg_comp_init,
    bind_sparse_init,
    bind_nnf_more_init,
    bind_pydef_init,
    bind_nnf_misc_init,
    bind_nnf_pool3d_init,
    bind_nnf_loss_init,
    bind_nnf_interp_init,
    bind_nnf_conv3d_init,
    bind_nnf_misc2_init,
    bind_aten_alias_init,
    bind_viewcopy_init,
};

void bind_areas_init(void)
{
    for (unsigned i = 0; i < sizeof areas / sizeof areas[0]; i++) areas[i]();
}
