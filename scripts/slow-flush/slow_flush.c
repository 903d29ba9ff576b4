/* A disk whose flushes are slow, for benchmarks: loaded with LD_PRELOAD,
 * every fsync and fdatasync of the process sleeps SLOW_FLUSH_US
 * microseconds (default 2000) before the real flush. Nothing else
 * changes. Used by scripts/slow-flush/postgres to measure `skit load`
 * where the database's limit is its flush, as on most cloud disks,
 * rather than the CPU (see docs/performance.md). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

static void wait_like_a_disk(void)
{
    const char *text = getenv("SLOW_FLUSH_US");
    long us = text ? atol(text) : 2000;
    struct timespec pause = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&pause, NULL);
}

typedef int (*flush_fn)(int);

/* Waits, then flushes with the C library's own function `name`. */
static int flush_slowly(flush_fn *real, const char *name, int fd)
{
    if (!*real)
        *real = (flush_fn)dlsym(RTLD_NEXT, name);
    wait_like_a_disk();
    return (*real)(fd);
}

int fdatasync(int fd)
{
    static flush_fn real;
    return flush_slowly(&real, "fdatasync", fd);
}

int fsync(int fd)
{
    static flush_fn real;
    return flush_slowly(&real, "fsync", fd);
}
