/* SPDX-License-Identifier: MIT */
/*
 * The section types polc knows: IR and META, which `polc build` writes
 * beside them, and every section the backends write. A file of its own, so
 * that the readers (polc dump, the prover, the fuzz harnesses) take the
 * list without linking the backends.
 */
#include "backend.h"
#include "polbin.h"

const uint32_t backends_known_sections[] = {
    POLBIN_SEC_IR,	   POLBIN_SEC_META,
    POLBIN_SEC_SECCOMP,	   POLBIN_SEC_ENV,
    POLBIN_SEC_LANDLOCK,   POLBIN_SEC_NFT,
    POLBIN_SEC_LIMITS,	   POLBIN_SEC_NET,
    POLBIN_SEC_VIEW,	   POLBIN_SEC_NOEXEC,
    POLBIN_SEC_OBSERVE,	   POLBIN_SEC_EBPF,
    POLBIN_SEC_NONET,	   POLBIN_SEC_BROKER,
    POLBIN_SEC_UNENFORCED, 0,
};
