// SPDX-License-Identifier: MIT
/* Z3 through dlopen(); see z3_lazy.h. */
#define Z3_LAZY_IMPL
#include "z3_lazy.h"

#include <dlfcn.h>
#include <stdio.h>

#define Z3_LAZY_DEF(f) __typeof__(f) *z3_lazy_##f;
Z3_LAZY_FUNCS(Z3_LAZY_DEF)
#undef Z3_LAZY_DEF

int z3_lazy_load(char *err, size_t errlen)
{
	/* Kept for the life of the process: Z3 terms may outlive any user. */
	static void *lib;
	const char *missing = NULL;

	if (lib)
		return 0;
	lib = dlopen(Z3_LAZY_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		lib = dlopen("libz3.so", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(err, errlen, "cannot load Z3 (%s): %s", Z3_LAZY_SONAME,
			 dlerror());
		return -1;
	}
	/* dlsym() returns functions as void *, as POSIX guarantees works. */
#define Z3_LAZY_SYM(f)                                                         \
	if (!missing && !(z3_lazy_##f = (__typeof__(f) *)dlsym(lib, #f)))      \
		missing = #f;
	Z3_LAZY_FUNCS(Z3_LAZY_SYM)
#undef Z3_LAZY_SYM
	if (missing) {
		snprintf(err, errlen, "Z3 lacks %s", missing);
		dlclose(lib);
		lib = NULL;
		return -1;
	}
	return 0;
}
