/*
 * The sync shim (see include/CLifeboatSyncShim.h for what and why).
 *
 * Only async-signal-safe, allocation-free calls are used after the environment lookup, so the shim is safe in
 * any program, threaded or not, and never recurses into itself.
 */
#define _GNU_SOURCE
#include "CLifeboatSyncShim.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

static const char socket_variable[] = "LIFEBOAT_FAULTFS_SOCKET";
static const char mount_variable[] = "LIFEBOAT_FAULTFS_MOUNT";

/// How long to wait for FaultFS's acknowledgement before giving up (a hung daemon must not hang the program).
static const int reply_timeout_seconds = 120;

static void complain(const char *what) {
    static const char prefix[] = "lifeboat sync shim: ";
    ssize_t ignored = write(2, prefix, sizeof prefix - 1);
    ignored = write(2, what, strlen(what));
    ignored = write(2, "\n", 1);
    (void)ignored;
}

int lifeboat_sync_shim_request_sync_all(void) {
    const char *path = getenv(socket_variable);
    if (path == NULL || path[0] == '\0') return 0;
    int saved = errno;
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof address.sun_path) {
        complain("control socket path too long");
        errno = saved;
        return -1;
    }
    strcpy(address.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        complain("socket() failed");
        errno = saved;
        return -1;
    }
    struct timeval timeout = {reply_timeout_seconds, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    int result = -1;
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        complain("cannot connect to the FaultFS control socket");
    } else {
        static const char request[] = "{\"verb\":\"sync-all\"}\n";
        size_t sent = 0;
        while (sent < sizeof request - 1) {
            ssize_t n = send(fd, request + sent, sizeof request - 1 - sent, MSG_NOSIGNAL);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            sent += (size_t)n;
        }
        // The reply is one JSON line; it starts {"ok":true when the daemon made everything durable.
        char reply[512];
        size_t got = 0;
        while (sent == sizeof request - 1 && got < sizeof reply - 1) {
            ssize_t n = recv(fd, reply + got, sizeof reply - 1 - got, 0);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            got += (size_t)n;
            if (memchr(reply, '\n', got) != NULL) break;
        }
        reply[got] = '\0';
        if (strstr(reply, "\"ok\":true") != NULL) {
            result = 0;
        } else {
            complain(got == 0 ? "no acknowledgement from FaultFS" : "FaultFS refused sync-all");
        }
    }
    close(fd);
    errno = saved;
    return result;
}

/// True when `fd` is on the FaultFS mount (or when no mount was named: then every syncfs counts).
static int on_faultfs(int fd) {
    const char *mount = getenv(mount_variable);
    if (mount == NULL || mount[0] == '\0') return 1;
    struct stat of_fd, of_mount;
    if (fstat(fd, &of_fd) != 0 || stat(mount, &of_mount) != 0) return 1;
    return of_fd.st_dev == of_mount.st_dev;
}

void sync(void) {
    void (*real)(void) = (void (*)(void))dlsym(RTLD_NEXT, "sync");
    if (real != NULL) real();
    (void)lifeboat_sync_shim_request_sync_all();
}

int syncfs(int fd) {
    int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "syncfs");
    if (real != NULL && real(fd) != 0) return -1;
    if (getenv(socket_variable) != NULL && on_faultfs(fd) && lifeboat_sync_shim_request_sync_all() != 0) {
        errno = EIO;
        return -1;
    }
    return 0;
}
