#ifndef MEDIASHELL_CFUSE_H
#define MEDIASHELL_CFUSE_H
// libfuse3's high-level (path) API at the 3.1 level: getattr and readdir with their file-info and flags
// arguments, fuse_new and fuse_loop_mt as functions (they are macros over versioned symbols, which Swift
// cannot call: the wrappers below are).
#define FUSE_USE_VERSION 31
#include <fuse.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/// fuse_new with the options in `argv` (argv[0] the program name), parsed as fuse_main would; the
/// argument list is freed before returning. NULL when an option is refused (libfuse says why on stderr).
static inline struct fuse *msh_fuse_new(const char *const *argv, int argc, const struct fuse_operations *ops, void *data) {
    struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
    for (int i = 0; i < argc; i++) {
        if (fuse_opt_add_arg(&args, argv[i]) != 0) {
            fuse_opt_free_args(&args);
            return NULL;
        }
    }
    struct fuse *fuse = fuse_new(&args, ops, sizeof *ops, data);
    fuse_opt_free_args(&args);
    return fuse;
}

/// The multi-threaded loop (each request on a worker thread); returns when the file system is unmounted
/// or fuse_exit was called (0), or on an error of the loop.
static inline int msh_fuse_loop_mt(struct fuse *fuse) { return fuse_loop_mt(fuse, 0); }

/// The private data given to fuse_new, from inside an operation.
static inline void *msh_fuse_private_data(void) {
    struct fuse_context *context = fuse_get_context();
    return context ? context->private_data : NULL;
}

/// Bit fields of fuse_file_info, which Swift reads awkwardly.
static inline void msh_fuse_set_keep_cache(struct fuse_file_info *fi, int on) { fi->keep_cache = on ? 1 : 0; }
static inline void msh_fuse_set_direct_io(struct fuse_file_info *fi, int on) { fi->direct_io = on ? 1 : 0; }
static inline void msh_fuse_set_noflush(struct fuse_file_info *fi, int on) { fi->noflush = on ? 1 : 0; }

/// The kernel's read-ahead for the mount, and the largest write it sends at once (init's connection).
static inline void msh_fuse_configure(struct fuse_conn_info *conn, struct fuse_config *cfg, unsigned readahead) {
    if (readahead > conn->max_readahead) readahead = conn->max_readahead;
    conn->max_readahead = readahead;
    // Every readdir brings the attributes with the names (readdirplus), not only a folder's first one
    // (the kernel's "auto" mode): `ls -l` of a folder then asks nothing per name.
    if (conn->capable & FUSE_CAP_READDIRPLUS) conn->want |= FUSE_CAP_READDIRPLUS;
    conn->want &= ~FUSE_CAP_READDIRPLUS_AUTO;
    cfg->kernel_cache = 1;       // a camera's file never changes in place: the page cache may keep it across opens
    cfg->use_ino = 0;
    cfg->nullpath_ok = 0;
    cfg->entry_timeout = 1.0;    // names and attributes are trusted for a second: a camera's events show within it
    cfg->attr_timeout = 1.0;
    cfg->negative_timeout = 0;   // a name not there may appear at any moment (a capture, a new file on the card)
}
#endif
