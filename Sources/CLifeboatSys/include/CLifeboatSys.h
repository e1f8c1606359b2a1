/*
 * CLifeboatSys: Linux calls that Swift cannot reach directly (ioctl request macros, variadic calls).
 */
#ifndef LIFEBOAT_CLIFEBOATSYS_H
#define LIFEBOAT_CLIFEBOATSYS_H

#include <stdint.h>
#include <sys/types.h>

/// Clones `src_fd` into `dst_fd` with FICLONE (XFS reflink=1, btrfs). Returns 0 or -1 with errno set.
int lb_ficlone(int dst_fd, int src_fd);

/// Copies `len` bytes with copy_file_range(2), looping over short copies. Returns bytes copied or -1 with errno.
int64_t lb_copy_file_range_all(int src_fd, int dst_fd, int64_t len);

/// Opens a file with an explicit mode (open(2) is variadic in C).
int lb_open(const char *path, int flags, unsigned int mode);



/// The peak resident set size of this process in KiB (getrusage ru_maxrss).
long lb_self_maxrss_kib(void);
#endif
