/* fuzz_mtx.c: libFuzzer target for the Matrix Market reader (work/mtx.c) and the communication
 * pattern of y = A x that the pattern workload's file:PATH takes from it.
 *
 * The input is the file. A read either fails with one line (HR_EINVAL, or HR_ENOMEM) and leaves
 * nothing allocated, or gives a matrix whose every entry is inside it; then, for a square matrix,
 * the pattern on p = 1, 2, 3 and 7 processors (those the rows allow) has an empty diagonal and
 * multiples of 8 bytes elsewhere. ASan and UBSan watch for everything else, LeakSanitizer for
 * lost memory. `make fuzz` builds and runs it; `make check` replays tests/fuzz/corpus/mtx/.
 */
#include <hremu/error.h>

#include "fuzz_common.h"
#include "work/mtx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], why[512];
    int fd = fuzz_file(data, size, path, sizeof path);
    hr_mtx m;
    int err = hr__mtx_read(path, &m, why, sizeof why);
    close(fd);
    if (err != HR_OK) {
        if (err != HR_EINVAL && err != HR_ENOMEM)
            abort();
        fuzz_one_line(why);
        return 0;
    }
    for (uint64_t k = 0; k < m.nnz; k++)
        if (m.row[k] >= m.rows || m.col[k] >= m.cols)
            abort();
    static const int ps[] = { 1, 2, 3, 7 };
    for (size_t i = 0; m.rows == m.cols && i < sizeof ps / sizeof ps[0]; i++) {
        int p = ps[i];
        if ((uint64_t)p > m.rows)
            break;
        uint64_t com[49];
        err = hr__mtx_spmv_pattern(&m, p, com, why, sizeof why);
        if (err != HR_OK) {
            if (err != HR_ENOMEM)
                abort();
            fuzz_one_line(why);
            continue;
        }
        for (int a = 0; a < p; a++)
            for (int b = 0; b < p; b++)
                if ((a == b && com[a * p + b] != 0) || com[a * p + b] % 8 != 0)
                    abort();
    }
    hr__mtx_free(&m);
    return 0;
}
