#define _GNU_SOURCE
#include "CLifeboatSys.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <string.h>
#include <unistd.h>

int lb_ficlone(int dst_fd, int src_fd) {
    return ioctl(dst_fd, FICLONE, src_fd);
}

int lb_ficlone_probe(int dst_fd, int src_fd) {
    struct stat info;
    if (fstat(src_fd, &info) != 0) return -1;
    struct file_clone_range range = {0};
    range.src_fd = src_fd;
    range.src_offset = 0;
    /* One block, or the whole file when it is no larger (a length of 0 clones to the end of the file). */
    range.src_length = info.st_size > info.st_blksize ? (uint64_t)info.st_blksize : 0;
    range.dest_offset = 0;
    return ioctl(dst_fd, FICLONERANGE, &range);
}

int lb_syncfs(int fd) {
    return syncfs(fd);
}

long lb_fstatfs_type(int fd) {
    struct statfs info;
    if (fstatfs(fd, &info) != 0) return -1;
    return (long)info.f_type;
}

int64_t lb_copy_file_range_all(int src_fd, int dst_fd, int64_t len) {
    /* Extent by extent (SEEK_DATA / SEEK_HOLE), so holes stay holes: a store grown by free pages copies in the
       time its data takes. Where SEEK_DATA is not supported the whole file is one extent. Returns the length
       reached, which is `len` on success. */
    loff_t pos = 0;
    while (pos < len) {
        loff_t data = lseek(src_fd, pos, SEEK_DATA);
        if (data < 0) data = (errno == ENXIO) ? len : pos;
        if (data >= len) break;
        loff_t hole = lseek(src_fd, data, SEEK_HOLE);
        if (hole < 0 || hole > len) hole = len;
        loff_t in_off = data, out_off = data;
        while (in_off < hole) {
            ssize_t n = copy_file_range(src_fd, &in_off, dst_fd, &out_off, (size_t)(hole - in_off), 0);
            if (n < 0) {
                if (errno == EINTR) continue;
                return -1;
            }
            if (n == 0) return in_off;
        }
        pos = hole;
    }
    if (ftruncate(dst_fd, len) != 0) return -1;
    return len;
}

int lb_open(const char *path, int flags, unsigned int mode) {
    return open(path, flags, (mode_t)mode);
}

#include <stdio.h>
#include <sys/resource.h>

/* The peak resident set of this process image: VmHWM from /proc/self/status. Not getrusage's ru_maxrss: Linux
   carries ru_maxrss across execve from the memory the process had before it, and a child started by posix_spawn
   (vfork) had its parent's, so every step of a run reported at least the runner's own peak. VmHWM belongs to the
   address space execve made. ru_maxrss only where /proc cannot be read. */
long lb_self_maxrss_kib(void) {
    FILE *status = fopen("/proc/self/status", "r");
    if (status != NULL) {
        char line[256];
        long kib = -1;
        while (fgets(line, sizeof line, status) != NULL) {
            if (sscanf(line, "VmHWM: %ld kB", &kib) == 1) break;
        }
        fclose(status);
        if (kib >= 0) return kib;
    }
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) != 0) return -1;
    return usage.ru_maxrss;
}

#include <stdio.h>
#include <sys/mount.h>

int lb_openat(int dirfd, const char *path, int flags, unsigned int mode) {
    return openat(dirfd, path, flags, (mode_t)mode);
}

int lb_renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags) {
    unsigned int f = 0;
    if (flags & LB_RENAME_NOREPLACE) f |= RENAME_NOREPLACE;
    if (flags & LB_RENAME_EXCHANGE) f |= RENAME_EXCHANGE;
    return renameat2(olddirfd, oldpath, newdirfd, newpath, f);
}

int lb_fallocate(int fd, int mode, int64_t offset, int64_t len) {
    return fallocate(fd, mode, (off_t)offset, (off_t)len);
}

int64_t lb_copy_file_range(int fd_in, int64_t *off_in, int fd_out, int64_t *off_out, size_t len, unsigned int flags) {
    loff_t in = (loff_t)*off_in, out = (loff_t)*off_out;
    ssize_t n = copy_file_range(fd_in, &in, fd_out, &out, len, flags);
    *off_in = (int64_t)in;
    *off_out = (int64_t)out;
    return (int64_t)n;
}

int lb_umount_detach(const char *path) {
    return umount2(path, MNT_DETACH);
}

void *lb_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

int lb_spawn_closefrom(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}
