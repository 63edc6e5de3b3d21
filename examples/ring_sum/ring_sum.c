/* ring_sum.c: a ring allreduce of one int64, written as a user of hremu would. */
#include "ring_sum.h"

int64_t ring_sum(hr_proc *p, int64_t mine)
{
    int n = hr_nprocs(p), me = hr_pid(p);
    int right = (me + 1) % n, left = (me + n - 1) % n;
    int64_t sum = mine, pass = mine;
    for (int step = 1; step < n; step++) {
        int64_t got;
        hr_send(p, right, step, &pass, sizeof pass);
        hr_recv(p, left, step, &got, sizeof got, NULL);
        sum += got;
        pass = got;
    }
    return sum;
}
