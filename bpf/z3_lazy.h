/* SPDX-License-Identifier: MIT */
/*
 * Z3, loaded when first needed rather than when the program starts.
 *
 * Translation validation decides almost every program without Z3
 * (bpf/wordsat.h), yet mapping libz3 and the C++ runtime it pulls in costs
 * a `polc build` several milliseconds before main() even runs. So polc is
 * linked without -lz3 (bpf/bpf.mk), and the Z3 functions the symbolic
 * evaluator uses are called through pointers that z3_lazy_load() fills
 * with dlopen()/dlsym() the first time a bpf_sym context is created.
 *
 * Include this instead of <z3.h>: it includes <z3.h> for the types and
 * redirects every function listed here to its pointer. A function used
 * but missing from the list links against libz3 directly, which polc's
 * link refuses: add it to Z3_LAZY_FUNCS and to the redirections.
 */
#ifndef POLC_Z3_LAZY_H
#define POLC_Z3_LAZY_H

#include <stddef.h>
#include <z3.h>

/* The library's name at run time (its soname), then the development link. */
#ifndef Z3_LAZY_SONAME
#define Z3_LAZY_SONAME "libz3.so.4"
#endif

#define Z3_LAZY_FUNCS(X)                                                       \
	X(Z3_del_config)                                                       \
	X(Z3_del_context)                                                      \
	X(Z3_get_error_code)                                                   \
	X(Z3_get_error_msg)                                                    \
	X(Z3_get_numeral_uint)                                                 \
	X(Z3_get_numeral_uint64)                                               \
	X(Z3_is_eq_ast)                                                        \
	X(Z3_is_numeral_ast)                                                   \
	X(Z3_mk_and)                                                           \
	X(Z3_mk_bv_sort)                                                       \
	X(Z3_mk_bvadd)                                                         \
	X(Z3_mk_bvand)                                                         \
	X(Z3_mk_bvlshr)                                                        \
	X(Z3_mk_bvmul)                                                         \
	X(Z3_mk_bvneg)                                                         \
	X(Z3_mk_bvor)                                                          \
	X(Z3_mk_bvshl)                                                         \
	X(Z3_mk_bvsub)                                                         \
	X(Z3_mk_bvudiv)                                                        \
	X(Z3_mk_bvuge)                                                         \
	X(Z3_mk_bvugt)                                                         \
	X(Z3_mk_bvule)                                                         \
	X(Z3_mk_bvult)                                                         \
	X(Z3_mk_bvxor)                                                         \
	X(Z3_mk_config)                                                        \
	X(Z3_mk_const)                                                         \
	X(Z3_mk_context)                                                       \
	X(Z3_mk_eq)                                                            \
	X(Z3_mk_extract)                                                       \
	X(Z3_mk_ite)                                                           \
	X(Z3_mk_not)                                                           \
	X(Z3_mk_or)                                                            \
	X(Z3_mk_params)                                                        \
	X(Z3_mk_solver)                                                        \
	X(Z3_mk_string_symbol)                                                 \
	X(Z3_mk_true)                                                          \
	X(Z3_mk_unsigned_int)                                                  \
	X(Z3_mk_unsigned_int64)                                                \
	X(Z3_model_dec_ref)                                                    \
	X(Z3_model_eval)                                                       \
	X(Z3_model_inc_ref)                                                    \
	X(Z3_params_dec_ref)                                                   \
	X(Z3_params_inc_ref)                                                   \
	X(Z3_params_set_uint)                                                  \
	X(Z3_set_error_handler)                                                \
	X(Z3_set_param_value)                                                  \
	X(Z3_solver_assert)                                                    \
	X(Z3_solver_check)                                                     \
	X(Z3_solver_dec_ref)                                                   \
	X(Z3_solver_get_model)                                                 \
	X(Z3_solver_get_reason_unknown)                                        \
	X(Z3_solver_inc_ref)                                                   \
	X(Z3_solver_pop)                                                       \
	X(Z3_solver_push)                                                      \
	X(Z3_solver_set_params)

#define Z3_LAZY_PTR(f) extern __typeof__(f) *z3_lazy_##f;
Z3_LAZY_FUNCS(Z3_LAZY_PTR)
#undef Z3_LAZY_PTR

/*
 * Load libz3 and resolve every function, once. Returns 0, or -1 with err
 * (the library or one of its functions is missing).
 */
int z3_lazy_load(char *err, size_t errlen);

#ifndef Z3_LAZY_IMPL
#define Z3_del_config		     (*z3_lazy_Z3_del_config)
#define Z3_del_context		     (*z3_lazy_Z3_del_context)
#define Z3_get_error_code	     (*z3_lazy_Z3_get_error_code)
#define Z3_get_error_msg	     (*z3_lazy_Z3_get_error_msg)
#define Z3_get_numeral_uint	     (*z3_lazy_Z3_get_numeral_uint)
#define Z3_get_numeral_uint64	     (*z3_lazy_Z3_get_numeral_uint64)
#define Z3_is_eq_ast		     (*z3_lazy_Z3_is_eq_ast)
#define Z3_is_numeral_ast	     (*z3_lazy_Z3_is_numeral_ast)
#define Z3_mk_and		     (*z3_lazy_Z3_mk_and)
#define Z3_mk_bv_sort		     (*z3_lazy_Z3_mk_bv_sort)
#define Z3_mk_bvadd		     (*z3_lazy_Z3_mk_bvadd)
#define Z3_mk_bvand		     (*z3_lazy_Z3_mk_bvand)
#define Z3_mk_bvlshr		     (*z3_lazy_Z3_mk_bvlshr)
#define Z3_mk_bvmul		     (*z3_lazy_Z3_mk_bvmul)
#define Z3_mk_bvneg		     (*z3_lazy_Z3_mk_bvneg)
#define Z3_mk_bvor		     (*z3_lazy_Z3_mk_bvor)
#define Z3_mk_bvshl		     (*z3_lazy_Z3_mk_bvshl)
#define Z3_mk_bvsub		     (*z3_lazy_Z3_mk_bvsub)
#define Z3_mk_bvudiv		     (*z3_lazy_Z3_mk_bvudiv)
#define Z3_mk_bvuge		     (*z3_lazy_Z3_mk_bvuge)
#define Z3_mk_bvugt		     (*z3_lazy_Z3_mk_bvugt)
#define Z3_mk_bvule		     (*z3_lazy_Z3_mk_bvule)
#define Z3_mk_bvult		     (*z3_lazy_Z3_mk_bvult)
#define Z3_mk_bvxor		     (*z3_lazy_Z3_mk_bvxor)
#define Z3_mk_config		     (*z3_lazy_Z3_mk_config)
#define Z3_mk_const		     (*z3_lazy_Z3_mk_const)
#define Z3_mk_context		     (*z3_lazy_Z3_mk_context)
#define Z3_mk_eq		     (*z3_lazy_Z3_mk_eq)
#define Z3_mk_extract		     (*z3_lazy_Z3_mk_extract)
#define Z3_mk_ite		     (*z3_lazy_Z3_mk_ite)
#define Z3_mk_not		     (*z3_lazy_Z3_mk_not)
#define Z3_mk_or		     (*z3_lazy_Z3_mk_or)
#define Z3_mk_params		     (*z3_lazy_Z3_mk_params)
#define Z3_mk_solver		     (*z3_lazy_Z3_mk_solver)
#define Z3_mk_string_symbol	     (*z3_lazy_Z3_mk_string_symbol)
#define Z3_mk_true		     (*z3_lazy_Z3_mk_true)
#define Z3_mk_unsigned_int	     (*z3_lazy_Z3_mk_unsigned_int)
#define Z3_mk_unsigned_int64	     (*z3_lazy_Z3_mk_unsigned_int64)
#define Z3_model_dec_ref	     (*z3_lazy_Z3_model_dec_ref)
#define Z3_model_eval		     (*z3_lazy_Z3_model_eval)
#define Z3_model_inc_ref	     (*z3_lazy_Z3_model_inc_ref)
#define Z3_params_dec_ref	     (*z3_lazy_Z3_params_dec_ref)
#define Z3_params_inc_ref	     (*z3_lazy_Z3_params_inc_ref)
#define Z3_params_set_uint	     (*z3_lazy_Z3_params_set_uint)
#define Z3_set_error_handler	     (*z3_lazy_Z3_set_error_handler)
#define Z3_set_param_value	     (*z3_lazy_Z3_set_param_value)
#define Z3_solver_assert	     (*z3_lazy_Z3_solver_assert)
#define Z3_solver_check		     (*z3_lazy_Z3_solver_check)
#define Z3_solver_dec_ref	     (*z3_lazy_Z3_solver_dec_ref)
#define Z3_solver_get_model	     (*z3_lazy_Z3_solver_get_model)
#define Z3_solver_get_reason_unknown (*z3_lazy_Z3_solver_get_reason_unknown)
#define Z3_solver_inc_ref	     (*z3_lazy_Z3_solver_inc_ref)
#define Z3_solver_pop		     (*z3_lazy_Z3_solver_pop)
#define Z3_solver_push		     (*z3_lazy_Z3_solver_push)
#define Z3_solver_set_params	     (*z3_lazy_Z3_solver_set_params)
#endif

#endif
