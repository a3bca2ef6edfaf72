/*
 * The kernel's floor for paced loopback writes (issue 8, BENCHMARKS.md "The floor").
 *
 * A writer opens N TCP connections on 127.0.0.1 to a sink in a child process and writes one
 * BYTES-byte frame on every connection every 20 ms, the phases spread evenly, as a tester
 * streaming 20 ms audio frames does; the sink reads and discards (one read per readiness event,
 * as SwiftNIO does). There is no WebSocket, no JSON, no allocation: what the writer spends is
 * what the kernel charges for the writes. It prints the CPU of both processes over the steady
 * window (after WARMUP seconds), in cores and in microseconds per frame.
 *
 * TICK_US > 0 coalesces wake-ups: the writer wakes at most once per TICK_US and sends every frame
 * due by then, so a frame waits up to one tick (reported as send lag).
 *
 * SINK_CPUS (a CPU list such as 1 or 8-15,17) pins the sink, where the writer is pinned with
 * taskset: the scaling benchmark (bench/scale.py) runs T writers on the tester's cores and their
 * sinks on the simulator's. The send lag of the steady window is reported as its p99 (in 10 us
 * buckets) and the count over 5 ms, to be judged as vload judges its own.
 *
 *   cc -O2 -o floor bench/floor/floor.c && ./floor N [BYTES] [SECONDS] [WARMUP] [TICK_US] [SINK_CPUS]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const long FRAME_NS = 20L * 1000 * 1000;

static long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

static double cpu_s(int who) {
    struct rusage u;
    getrusage(who, &u);
    return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

static void die(const char *what) { perror(what); exit(2); }

/* "1", "8-15" or "0,2-3": the CPUs of a taskset-style list; 0 when the list is malformed. */
static int parse_cpus(const char *text, cpu_set_t *set) {
    CPU_ZERO(set);
    const char *p = text;
    while (*p) {
        char *rest;
        long first = strtol(p, &rest, 10), last = first;
        if (rest == p || first < 0) return 0;
        if (*rest == '-') {
            p = rest + 1;
            last = strtol(p, &rest, 10);
            if (rest == p || last < first) return 0;
        }
        if (last >= CPU_SETSIZE) return 0;
        for (long cpu = first; cpu <= last; cpu++) CPU_SET(cpu, set);
        if (*rest == ',') rest++;
        else if (*rest != '\0') return 0;
        p = rest;
    }
    return CPU_COUNT(set) > 0;
}

/* Send lag in LAG_BUCKET_NS buckets up to one second; later frames share the last bucket. */
enum { LAG_BUCKET_NS = 10 * 1000, LAG_BUCKETS = 100 * 1000 + 1 };
static long lag_counts[LAG_BUCKETS];

static double lag_p99_ms(long count) {
    long rank = (count * 99 + 99) / 100, seen = 0;  /* nearest rank: ceil(0.99 * count) */
    for (int b = 0; b < LAG_BUCKETS; b++) {
        seen += lag_counts[b];
        if (count > 0 && seen >= rank) return (b + 1) * (LAG_BUCKET_NS / 1e6);  /* the bucket's upper edge */
    }
    return 0;
}

/* The sink: accept N connections, then read and discard until every peer has closed. It
 * reports its CPU over the steady window through the pipe when told (SIGUSR1 marks the start). */
static volatile sig_atomic_t mark_requested = 0;
static void on_usr1(int s) { (void)s; mark_requested = 1; }

static void sink(int listener, int n, int report_fd, const cpu_set_t *cpus) {
    if (cpus != NULL && sched_setaffinity(0, sizeof *cpus, cpus) < 0) die("sched_setaffinity");
    signal(SIGUSR1, on_usr1);
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = listener};
    epoll_ctl(ep, EPOLL_CTL_ADD, listener, &ev);
    static char buf[65536];
    struct epoll_event events[256];
    int open_count = 0, accepted = 0;
    double marked = -1;
    for (;;) {
        int k = epoll_wait(ep, events, 256, 100);
        if (mark_requested == 1) { marked = cpu_s(RUSAGE_SELF); mark_requested = 2; }
        for (int i = 0; i < k; i++) {
            int fd = events[i].data.fd;
            if (fd == listener) {
                int c = accept4(listener, NULL, NULL, SOCK_NONBLOCK);
                if (c < 0) continue;
                struct epoll_event cev = {.events = EPOLLIN, .data.fd = c};
                epoll_ctl(ep, EPOLL_CTL_ADD, c, &cev);
                open_count++; accepted++;
                continue;
            }
            ssize_t r = read(fd, buf, sizeof buf);
            if (r == 0 || (r < 0 && errno != EAGAIN)) { close(fd); open_count--; }
        }
        if (accepted == n && open_count == 0) break;
    }
    double used = marked < 0 ? 0 : cpu_s(RUSAGE_SELF) - marked;
    if (write(report_fd, &used, sizeof used) != sizeof used) exit(1);
    exit(0);
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: floor N [BYTES] [SECONDS] [WARMUP] [TICK_US] [SINK_CPUS]\n"); return 2; }
    int n = atoi(argv[1]);
    int bytes = argc > 2 ? atoi(argv[2]) : 1300;
    int seconds = argc > 3 ? atoi(argv[3]) : 20;
    int warmup = argc > 4 ? atoi(argv[4]) : 5;
    long tick_ns = (argc > 5 ? atol(argv[5]) : 0) * 1000;
    cpu_set_t sink_cpus;
    if (argc > 6 && !parse_cpus(argv[6], &sink_cpus)) {
        fprintf(stderr, "floor: SINK_CPUS '%s' is not a CPU list such as 1 or 8-15\n", argv[6]);
        return 2;
    }
    if (n < 1 || n > 20000 || bytes < 1 || bytes > 65536 || seconds <= warmup || warmup < 0 || tick_ns < 0 || tick_ns > FRAME_NS) {
        fprintf(stderr, "floor: need 1 <= N <= 20000, 1 <= BYTES <= 65536, SECONDS > WARMUP >= 0, 0 <= TICK_US <= 20000\n");
        return 2;
    }
    struct rlimit files = {n + 64, n + 64};
    setrlimit(RLIMIT_NOFILE, &files);

    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(listener, (struct sockaddr *)&address, sizeof address) < 0) die("bind");
    if (listen(listener, 4096) < 0) die("listen");
    socklen_t length = sizeof address;
    getsockname(listener, (struct sockaddr *)&address, &length);

    int report[2];
    if (pipe(report) < 0) die("pipe");
    pid_t child = fork();
    if (child == 0) { close(report[0]); sink(listener, n, report[1], argc > 6 ? &sink_cpus : NULL); }
    close(listener); close(report[1]);

    int *fds = malloc(sizeof(int) * n);
    for (int i = 0; i < n; i++) {
        fds[i] = socket(AF_INET, SOCK_STREAM, 0);
        int one = 1;
        setsockopt(fds[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  /* as NIO's default */
        if (connect(fds[i], (struct sockaddr *)&address, sizeof address) < 0) die("connect");
    }
    char *frame = malloc(bytes);
    memset(frame, 0x5a, bytes);

    /* Connection i is due at start + i * 20 ms / N + k * 20 ms. Each tick sends every due frame,
     * then sleeps to the next deadline (absolute, so lateness does not accumulate). */
    long start = now_ns() + 100L * 1000 * 1000;
    long end = start + seconds * 1000000000L, steady = start + warmup * 1000000000L;
    long *due = malloc(sizeof(long) * n);
    for (int i = 0; i < n; i++) due[i] = start + (FRAME_NS * i) / n;
    long frames = 0, late_over_5ms = 0, steady_frames = 0, steady_late_over_5ms = 0, wakeups = 0, woke = 0;
    long lag_sum_ns = 0;
    double cpu_at_steady = -1;
    int next = 0;  /* the due times rise with i within a round, so the next due is due[next] */
    for (;;) {
        long t = due[next];
        if (t >= end) break;
        if (t < woke + tick_ns) t = woke + tick_ns;
        struct timespec ts = {t / 1000000000L, t % 1000000000L};
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
        long now = now_ns();
        woke = now;
        if (now >= steady) wakeups++;
        if (cpu_at_steady < 0 && now >= steady) { cpu_at_steady = cpu_s(RUSAGE_SELF); kill(child, SIGUSR1); }
        while (due[next] <= now) {
            if (write(fds[next], frame, bytes) != bytes) die("write");
            if (now - due[next] > 5L * 1000 * 1000) late_over_5ms++;
            frames++;
            if (now >= steady) {
                long lag = now - due[next];
                steady_frames++;
                lag_sum_ns += lag;
                if (lag > 5L * 1000 * 1000) steady_late_over_5ms++;
                lag_counts[lag / LAG_BUCKET_NS < LAG_BUCKETS ? lag / LAG_BUCKET_NS : LAG_BUCKETS - 1]++;
            }
            due[next] += FRAME_NS;
            next = (next + 1) % n;
        }
    }
    double writer_cpu = cpu_s(RUSAGE_SELF) - cpu_at_steady;
    for (int i = 0; i < n; i++) close(fds[i]);
    double sink_cpu = 0;
    if (read(report[0], &sink_cpu, sizeof sink_cpu) != sizeof sink_cpu) sink_cpu = -1;
    waitpid(child, NULL, 0);
    double window = seconds - warmup;
    printf("sessions %d  bytes %d  tick %ld us  frames/s %.0f  wake-ups/s %.0f  mean lag %.3f ms  "
           "writer %.3f cores (%.2f us/frame)  sink %.3f cores  late>5ms %ld of %ld  "
           "steady: lag p99 %.2f ms, late>5ms %ld of %ld\n",
           n, bytes, tick_ns / 1000, steady_frames / window, wakeups / window, lag_sum_ns / 1e6 / steady_frames,
           writer_cpu / window, writer_cpu * 1e6 / steady_frames, sink_cpu / window, late_over_5ms, frames,
           lag_p99_ms(steady_frames), steady_late_over_5ms, steady_frames);
    return 0;
}
