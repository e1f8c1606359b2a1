/*
 * CLifeboatSyncShim: an LD_PRELOAD library (product LifeboatSyncShim, libLifeboatSyncShim.so) that turns a
 * process's sync(2) and syncfs(2) into an acknowledged FaultFS "sync-all".
 *
 * The kernel does not pass syncfs on to a FUSE daemon, so FaultFS cannot see that a program made everything
 * durable with `sync`, `sync -f DIR` or Python's os.sync(). With this library preloaded, those calls first do
 * what they always do, then send {"verb":"sync-all"} to the FaultFS control socket named by
 * LIFEBOAT_FAULTFS_SOCKET and wait for the reply before returning. syncfs(fd) only does so when fd is on the
 * file system mounted at LIFEBOAT_FAULTFS_MOUNT (any fd when that variable is unset).
 *
 * Without LIFEBOAT_FAULTFS_SOCKET the library only forwards to the real calls. Nothing here is called from
 * Swift; the header documents the exported symbols.
 */
#ifndef LIFEBOAT_CLIFEBOATSYNCSHIM_H
#define LIFEBOAT_CLIFEBOATSYNCSHIM_H

void sync(void);
int syncfs(int fd);

/// Sends one sync-all request and waits for its acknowledgement. Returns 0 on success (or when no socket is
/// configured), -1 when FaultFS could not be reached or refused. Exported for tests.
int lifeboat_sync_shim_request_sync_all(void);

#endif
