/*
 * clockshift: an LD_PRELOAD shim that shifts the wall clock of one process.
 *
 * CLOCK_REALTIME (and its coarse variant), gettimeofday() and time() return the real time plus an offset in
 * milliseconds, read on every call from the file named by $REDLOCK_CLOCK_OFFSET_FILE (a signed decimal number; a
 * missing or empty file means 0). Monotonic clocks are untouched.
 *
 * Only raw system calls are used: no malloc, no stdio, no dlsym. libfaketime-style shims that allocate hang
 * jemalloc-linked redis-server at start-up.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static long long offset_millis(void) {
    static const char *path;
    static int looked_up;
    if (!looked_up) {
        path = getenv("REDLOCK_CLOCK_OFFSET_FILE");
        looked_up = 1;
    }
    if (path == NULL) {
        return 0;
    }
    int fd = (int) syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return 0;
    }
    char buf[32];
    long n = syscall(SYS_read, fd, buf, sizeof(buf) - 1);
    syscall(SYS_close, fd);
    if (n <= 0) {
        return 0;
    }
    long long value = 0;
    int negative = 0;
    long i = 0;
    if (buf[0] == '-') {
        negative = 1;
        i = 1;
    }
    for (; i < n && buf[i] >= '0' && buf[i] <= '9'; i++) {
        value = value * 10 + (buf[i] - '0');
    }
    return negative ? -value : value;
}

static void shift(struct timespec *ts, long long millis) {
    long long nanos = (long long) ts->tv_nsec + (millis % 1000) * 1000000LL;
    ts->tv_sec += millis / 1000;
    while (nanos < 0) {
        nanos += 1000000000LL;
        ts->tv_sec -= 1;
    }
    while (nanos >= 1000000000LL) {
        nanos -= 1000000000LL;
        ts->tv_sec += 1;
    }
    ts->tv_nsec = (long) nanos;
}

int clock_gettime(clockid_t clock, struct timespec *ts) {
    long rc = syscall(SYS_clock_gettime, clock, ts);
    if (rc == 0 && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE)) {
        shift(ts, offset_millis());
    }
    return (int) rc;
}

int gettimeofday(struct timeval *tv, void *tz) {
    struct timespec ts;
    (void) tz;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0) {
        return -1;
    }
    if (tv != NULL) {
        tv->tv_sec = ts.tv_sec;
        tv->tv_usec = ts.tv_nsec / 1000;
    }
    return 0;
}

time_t time(time_t *out) {
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0) {
        return (time_t) -1;
    }
    if (out != NULL) {
        *out = ts.tv_sec;
    }
    return ts.tv_sec;
}
