/* src/bind/areas.h — the binding areas, each registering its part of the
 * library the language sees (modules, rows of the binding table, Tensor
 * methods). src/bind/areas.c runs them, in one explicit order. */
#ifndef TSR_BIND_AREAS_H
#define TSR_BIND_AREAS_H

void bind_builtins_init(void);    /* Python's built-ins (builtins.c) */
void bind_torch_init(void);       /* the torch module and its constants (torchmod.c) */
void bind_math_init(void);        /* math and time (mathmod.c) */
void bind_tensor_init(void);      /* the Tensor type, its properties and methods (tensor.c) */
void bind_types_init(void);       /* dtype, device, layout, memory_format, Size, finfo (types.c) */
void bind_attrs_init(void);       /* tensor attributes and conversions (attrs.c) */
void bind_shape_init(void);       /* views and shape ops (shape.c) */
void bind_random_init(void);      /* generators, seeds and the random factories (random.c) */
void bind_printopts_init(void);   /* torch.set_printoptions (printopts.c) */
void bind_factory_init(void);     /* tensor factories (factory.c) */
void bind_pointwise_init(void);   /* elementwise ops: the pointwise rows (pointwise.c) */
void bind_storage_init(void);     /* Storage values and classes (storage.c) */
void bind_bessel_init(void);      /* torch.special's Bessel family (bessel.c) */
void bind_special_init(void);     /* torch.special (special.c) */
void bind_session_init(void);     /* exit and quit (session.c) */
void bind_join_init(void);        /* cat/stack, splits, flip/roll/repeat, tril/triu, diag (join.c) */
void bind_reduce_init(void);      /* reductions: sum, mean, var, max, ... (reduce.c) */
void bind_exceptions_init(void);  /* Python's exception classes (exceptions.c) */
void bind_sys_init(void);         /* the sys module (sysmod.c) */
void bind_index_init(void);       /* indexing functions: gather, scatter, index_select, ... (index.c) */
void bind_linalg_init(void);      /* the matmul family and torch.linalg (linalg.c) */
void bind_query_init(void);       /* pinned/shared memory, is_nonzero, typename, torch.pi ... (query.c) */
void bind_cuda_init(void);        /* torch.cuda, torch.backends, torch.version (cudamod.c) */
void bind_stats_init(void);       /* diff, trapezoid, cov, quantile, histograms, unique (stats.c) */
void bind_linalg_lapack_init(void);   /* torch.linalg's LAPACK functions (linalg_lapack.c) */
void bind_linalg_init(void);
void bind_fft_init(void);         /* torch.fft, the window functions, stft/istft (fft.c) */

/* Runs every area's init, in the order above. */
void bind_io_init(void);          /* torch.save, torch.load and io.BytesIO (io.c) */
void bind_contract_init(void);    /* torch.tensordot and torch.einsum (contract.c) */
void bind_nnf_init(void);         /* torch.nn.functional (nnf.c) */
void bind_names_init(void);       /* has_names, rename, refine_names, align_to, align_as (names.c) */
void bind_autograd_init(void);    /* grad, grad_fn, backward, no_grad, torch.autograd (autograd.c) */
void bind_numpy_init(void);       /* the numpy module, x.numpy(), torch.from_numpy (numpy.c) */
void bind_nnf_layers_init(void);  /* F.conv*, pooling, normalization layers (nnf_layers.c) */
void bind_linalg_comp_init(void); /* tensorinv, tensorsolve, lstsq, cond, matrix_exp, ldl (linalg_comp.c) */
void bind_sparse_init(void);      /* sparse_coo_tensor, torch.sparse, the sparse step (sparse.c) */
void bind_nnf_more_init(void);    /* F.glu, pixel/channel shuffles, shrinks, rrelu, unfold/fold (nnf_more.c) */
void bind_nnf_misc_init(void);    /* F.relu_/elu_/selu_/celu_/hardtanh_/leaky_relu_, torch.selu_/celu_ (nnf_misc.c) */
void bind_pydef_init(void);       /* the defs of torch/_tensor.py and torch/functional.py (pydef.c) */
void bind_nnf_pool3d_init(void);  /* F.max_pool3d, adaptive_max_pool3d, max_unpool1d/2d/3d, lp_pool1d/2d, avg_pool3d, adaptive_avg_pool3d, fractional_max_pool2d/3d, *_with_indices (nnf_pool3d.c) */
void bind_nnf_loss_init(void);    /* F's composed losses: margin_ranking, hinge/cosine_embedding, poisson/gaussian nll, ... (nnf_loss.c) */
void bind_nnf_interp_init(void);  /* F.interpolate, F.upsample, F.upsample_nearest (nnf_interp.c) */
void bind_nnf_conv3d_init(void);  /* torch.conv_tbc, F.conv_tbc (nnf_conv3d.c) */
void bind_nnf_misc2_init(void);   /* prelu, embedding_bag, ctc_loss, multi_head_attention_forward (nnf_misc2.c) */
void bind_aten_alias_init(void);  /* ATen's torch.batch_norm, convolution, grid_sampler, ... over F (aten_alias.c) */
void bind_viewcopy_init(void);    /* torch.expand_copy, split_copy, ... the view-copy functions (viewcopy.c) */

void bind_areas_init(void);

#endif
