// The latency of the user lookup CoreFoundation makes on every UserDefaults write on Linux
// (`CFCopyUserName` -> `getpwuid`), and of plain arithmetic of about the same length: the floor
// under goal 4 of BENCHMARKS.md ("Keys hashed by their bytes; where a write's time goes").
//
//     cc -O2 -o /tmp/user-lookup-latency Scripts/user-lookup-latency.c
//     /tmp/user-lookup-latency 500000 lookup
//     /tmp/user-lookup-latency 500000 arithmetic
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int compare(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

static long nanoseconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s COUNT lookup|arithmetic\n", argv[0]);
        return 2;
    }
    int count = atoi(argv[1]);
    int lookup = strcmp(argv[2], "lookup") == 0;
    long *durations = malloc(sizeof(long) * (size_t)count);
    volatile long sink = 0;
    for (int i = 0; i < count; i++) {
        long start = nanoseconds();
        if (lookup) {
            sink += (long)getpwuid(getuid());
        } else {
            for (int k = 0; k < 20000; k++) sink += (long)k * i;
        }
        durations[i] = nanoseconds() - start;
    }
    qsort(durations, (size_t)count, sizeof(long), compare);
    long median = durations[count / 2], tail = durations[(long)count * 999 / 1000];
    printf("%s: median %ld ns, p99 %ld ns, p99.9 %ld ns (%.1fx the median), max %ld ns\n", argv[2], median,
           durations[(long)count * 99 / 100], tail, (double)tail / (double)median, durations[count - 1]);
    free(durations);
    return 0;
}
