#define _GNU_SOURCE
#include "CLifeboatSys.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <unistd.h>

int lb_ficlone(int dst_fd, int src_fd) {
    return ioctl(dst_fd, FICLONE, src_fd);
}

int64_t lb_copy_file_range_all(int src_fd, int dst_fd, int64_t len) {
    int64_t done = 0;
    loff_t in_off = 0, out_off = 0;
    while (done < len) {
        ssize_t n = copy_file_range(src_fd, &in_off, dst_fd, &out_off, (size_t)(len - done), 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (n == 0) break;
        done += n;
    }
    return done;
}

int lb_open(const char *path, int flags, unsigned int mode) {
    return open(path, flags, (mode_t)mode);
}

#include <sys/resource.h>

long lb_self_maxrss_kib(void) {
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) != 0) return -1;
    return usage.ru_maxrss;
}
