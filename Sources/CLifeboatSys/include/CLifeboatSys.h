/*
 * CLifeboatSys: Linux calls that Swift cannot reach directly (ioctl request macros, variadic calls).
 */
#ifndef LIFEBOAT_CLIFEBOATSYS_H
#define LIFEBOAT_CLIFEBOATSYS_H

#include <spawn.h>
#include <stdint.h>
#include <sys/types.h>

/// Clones `src_fd` into `dst_fd` with FICLONE (XFS reflink=1, btrfs). Returns 0 or -1 with errno set.
int lb_ficlone(int dst_fd, int src_fd);

/// Whether the file system can clone `src_fd` into `dst_fd` (an empty file), at the cost of one block: FICLONERANGE
/// of the first block (of the whole file when it is one block or less). A trial FICLONE of the whole file costs
/// what the real clone costs (and its removal as much again: every shared extent's reference count goes back
/// down). Returns 0 or -1 with errno set, as FICLONE would.
int lb_ficlone_probe(int dst_fd, int src_fd);

/// syncfs(2) of the file system holding `fd` (needs _GNU_SOURCE, which Swift's Glibc module does not set).
int lb_syncfs(int fd);

/// The statfs(2) f_type (file system magic) of the file system holding `fd`, or -1 with errno set.
long lb_fstatfs_type(int fd);

/// Copies `len` bytes with copy_file_range(2), looping over short copies. Returns bytes copied or -1 with errno.
int64_t lb_copy_file_range_all(int src_fd, int dst_fd, int64_t len);

/// Opens a file with an explicit mode (open(2) is variadic in C).
int lb_open(const char *path, int flags, unsigned int mode);



/// The peak resident set size of this process in KiB (getrusage ru_maxrss).
long lb_self_maxrss_kib(void);

/// openat(2) with an explicit mode (variadic in C).
int lb_openat(int dirfd, const char *path, int flags, unsigned int mode);

/// renameat2(2): flags 0, LB_RENAME_NOREPLACE or LB_RENAME_EXCHANGE. Returns 0 or -1 with errno.
int lb_renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);
#define LB_RENAME_NOREPLACE 1
#define LB_RENAME_EXCHANGE 2

/// fallocate(2). Mode bits are the kernel's FALLOC_FL_* values, exposed below for Swift.
int lb_fallocate(int fd, int mode, int64_t offset, int64_t len);
#define LB_FALLOC_FL_KEEP_SIZE 0x01
#define LB_FALLOC_FL_PUNCH_HOLE 0x02
#define LB_FALLOC_FL_ZERO_RANGE 0x10

/// One copy_file_range(2) call with explicit offsets (the FUSE op passes one request straight through).
int64_t lb_copy_file_range(int fd_in, int64_t *off_in, int fd_out, int64_t *off_out, size_t len, unsigned int flags);

/// lseek whence values for holes (GNU extensions Swift's Glibc module does not export).
#define LB_SEEK_DATA 3
#define LB_SEEK_HOLE 4

/// umount2(path, MNT_DETACH): lazy unmount, the way to clear a mount whose daemon died (ENOTCONN).
int lb_umount_detach(const char *path);

/// memmem(3), a GNU extension Swift's Glibc module does not export: where `needle` first occurs in `haystack`.
void *lb_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);


/// posix_spawn_file_actions_addclosefrom_np (glibc 2.34+, not visible to Swift): the child closes every
/// descriptor from `lowest` up before it runs, so it inherits none of the harness's open files.
int lb_spawn_closefrom(posix_spawn_file_actions_t *actions, int lowest);

#endif
