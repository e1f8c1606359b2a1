/*
 * CFuse3: libfuse3 for Swift.
 *
 * libfuse selects its ABI by FUSE_USE_VERSION and exposes fuse_main, fuse_new and fuse_loop_mt as macros
 * that Swift cannot call, so this header fixes the version and wraps each macro in a static inline function.
 * The low-level API (fuse_session_new, fuse_session_loop_mt, node ids) is what the daemon serves with; the
 * high-level wrappers remain for `faultfs mount --high-level`.
 */
#ifndef LIFEBOAT_CFUSE3_SHIM_H
#define LIFEBOAT_CFUSE3_SHIM_H

#define FUSE_USE_VERSION 312
/* 64-bit off_t is the default on LP64; defining _FILE_OFFSET_BITS there would give libc structs (statvfs,
 * flock) different spellings than Swift's Glibc module sees, which clang modules reject. */
#if !defined(__LP64__)
#define _FILE_OFFSET_BITS 64
/* Low-level API: fuse_session_loop_mt is a macro selecting the 3.12 ABI. */
static inline struct fuse_session *cfuse_session_new(struct fuse_args *args, const struct fuse_lowlevel_ops *op,
                                                     void *userdata) {
    return fuse_session_new(args, op, sizeof(*op), userdata);
}

static inline int cfuse_session_loop_mt(struct fuse_session *se, struct fuse_loop_config *config) {
    return fuse_session_loop_mt(se, config);
}

#endif

#include <fuse3/fuse.h>
#include <fuse3/fuse_lowlevel.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/file.h>
#include <sys/xattr.h>

static inline int cfuse_main(int argc, char *argv[], const struct fuse_operations *op, void *private_data) {
    return fuse_main(argc, argv, op, private_data);
}

static inline struct fuse *cfuse_new(struct fuse_args *args, const struct fuse_operations *op, void *private_data) {
    return fuse_new(args, op, sizeof(*op), private_data);
}

static inline int cfuse_loop_mt(struct fuse *f, struct fuse_loop_config *config) {
    return fuse_loop_mt(f, config);
}

/// The private_data pointer handed to cfuse_new, for callbacks on FUSE worker threads.
static inline void *cfuse_private_data(void) {
    struct fuse_context *ctx = fuse_get_context();
    return ctx ? ctx->private_data : (void *)0;
}

/* Low-level API: fuse_session_loop_mt is a macro selecting the 3.12 ABI. */
static inline struct fuse_session *cfuse_session_new(struct fuse_args *args, const struct fuse_lowlevel_ops *op,
                                                     void *userdata) {
    return fuse_session_new(args, op, sizeof(*op), userdata);
}

static inline int cfuse_session_loop_mt(struct fuse_session *se, struct fuse_loop_config *config) {
    return fuse_session_loop_mt(se, config);
}

#endif
