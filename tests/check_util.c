/* check_util.c: error texts, tracked allocation, machine configuration checks, memory rules. */
#include "hr_test.h"

#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"

START_TEST(test_util_strerror_every_code)
{
    ck_assert_str_eq(hr_strerror(HR_OK), "success");
#define CHECK_TEXT(name, val, text) ck_assert_str_eq(hr_strerror(val), text);
    HR_ERRNO_MAP(CHECK_TEXT)
#undef CHECK_TEXT
    ck_assert_str_eq(hr_strerror(12345), "unknown error");
}
END_TEST

START_TEST(test_util_alloc_tracks_and_frees)
{
    hr_alloc a = { 0 };
    char *x = hr__alloc(&a, 100), *y = hr__alloc(&a, 50), *z = hr__alloc(&a, 7);
    ck_assert_ptr_nonnull(x);
    ck_assert_uint_eq(a.live, 157);
    memset(x, 1, 100);
    memset(z, 3, 7);
    ck_assert_uint_eq((uintptr_t)y % _Alignof(max_align_t), 0);
    hr__alloc_free(&a, y);
    ck_assert_uint_eq(a.live, 107);
    hr__alloc_free(&a, NULL);
    hr__alloc_free_all(&a);        /* LeakSanitizer would report x and z otherwise */
    ck_assert_uint_eq(a.live, 0);
    ck_assert_ptr_null(a.head);
    ck_assert_ptr_null(hr__alloc(&a, SIZE_MAX - 8));
}
END_TEST

START_TEST(test_util_alloc_recycles_large_blocks)
{
    hr_alloc a = { 0 };
    char *big = hr__alloc(&a, 1u << 20), *small = hr__alloc(&a, 100);
    (void)small;
    hr__alloc_recycle(&a);                 /* the next "run" */
    ck_assert_uint_eq(a.live, 0);
    char *again = hr__alloc(&a, 900000);   /* fits in the 1 MiB block without wasting half */
    ck_assert_ptr_eq(again, big);
    char *other = hr__alloc(&a, 1u << 20); /* the cache is empty now: a new block */
    ck_assert_ptr_ne(other, big);
    hr__alloc_free(&a, other);             /* large: cached, and handed out again at once */
    ck_assert_ptr_eq(hr__alloc(&a, 1u << 20), other);
    hr__alloc_free(&a, other);
    hr__alloc_recycle(&a);                 /* `again` is cached; nothing else */
    char *tiny = hr__alloc(&a, 100000);    /* would waste more than half of `again`: fresh */
    ck_assert_ptr_ne(tiny, again);
    hr__alloc_recycle(&a);                 /* the unused cache goes */
    hr__alloc_free_all(&a);
    ck_assert_ptr_null(a.head);
    ck_assert_ptr_null(a.cache);
    ck_assert_ptr_null(a.fresh);
}
END_TEST

/* A region over a buffer of our own: its blocks, their classes, the bins every owner shares,
 * malloc when it is full, and the start over at a reset. */
START_TEST(test_util_alloc_region_blocks)
{
    static _Alignas(64) unsigned char buf[64 * 1024];
    hr_alloc_region r = { .base = buf, .len = sizeof buf };
    hr_alloc a = { .region = &r }, b = { .region = &r };
    unsigned char *x = hr__alloc(&a, 1), *y = hr__alloc(&a, 16);
    size_t hdr = (size_t)(x - buf);             /* the first block starts the region */
    ck_assert_uint_gt(hdr, 0);
    ck_assert_uint_lt(hdr, 64);
    ck_assert_ptr_eq(y, x + 64);                /* both in the class of 64 bytes */
    ck_assert_uint_eq((uintptr_t)x % _Alignof(max_align_t), 0);
    /* A class is a multiple of 64 bytes, holds the block, and wastes at most a quarter. */
    size_t sizes[] = { 48, 49, 200, 1000, 4000, 5000, 16384, 20000 };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        unsigned char *p1 = hr__alloc(&a, sizes[i]), *p2 = hr__alloc(&a, sizes[i]);
        size_t d = (size_t)(p2 - p1), t = sizes[i] + hdr;
        ck_assert(p1 >= buf && p2 < buf + sizeof buf);
        ck_assert_uint_eq(d % 64, 0);
        ck_assert_uint_ge(d, t);
        ck_assert_uint_le(d, t + t / 4 + 64);
        hr__alloc_free(&a, p2);
        hr__alloc_free(&a, p1);
    }
    /* A freed block waits for the next one of its class, whoever asks. */
    unsigned char *z = hr__alloc(&a, 100);
    ck_assert_int_eq(hr__alloc_free(&a, z), HR_OK);
    unsigned char *w = hr__alloc(&b, 120);      /* 100 and 120 share a class */
    ck_assert_ptr_eq(w, z);
    ck_assert_int_eq(hr__alloc_free(&a, w), HR_EINVAL);   /* b's now, not a's */
    ck_assert_uint_eq(b.live, 120);
    /* Full: malloc's blocks, tracked as before. */
    unsigned char *last = NULL;
    for (int i = 0; i < 64; i++)
        last = hr__alloc(&b, 2000);
    ck_assert(last < buf || last >= buf + sizeof buf);
    memset(last, 7, 2000);
    ck_assert_int_eq(hr__alloc_free(&b, last), HR_OK);
    /* Large blocks never come from the region. */
    unsigned char *big = hr__alloc(&a, HR_ALLOC_CACHE_MIN);
    ck_assert(big < buf || big >= buf + sizeof buf);
    /* The next run: every owner recycles, then the region starts over. */
    hr__alloc_recycle(&a);
    hr__alloc_recycle(&b);
    hr__alloc_region_reset(&r);
    ck_assert_ptr_eq(hr__alloc(&b, 1), x);
    hr__alloc_free_all(&a);
    hr__alloc_free_all(&b);
    ck_assert_uint_eq(a.live + b.live, 0);
}
END_TEST

/* The machine's region: address space on huge-page boundaries (none under AddressSanitizer,
 * whose checks need malloc's blocks). */
START_TEST(test_util_alloc_region_reserves)
{
    hr_alloc_region r;
    hr__alloc_region_init(&r);
    if (r.base != NULL) {
        ck_assert_uint_eq((uintptr_t)r.base % (2u << 20), 0);
        ck_assert_uint_ge(r.len, 256u << 20);
        ck_assert_uint_eq(r.used, 0);
        hr_alloc a = { .region = &r };
        unsigned char *x = hr__alloc(&a, 100);
        ck_assert(x > r.base && x < r.base + r.len);
        memset(x, 1, 100);
        hr__alloc_free_all(&a);
    }
    hr__alloc_region_free(&r);
    ck_assert_ptr_null(r.base);
}
END_TEST

START_TEST(test_util_machine_config_checks)
{
    hr_machine_config cfg = hr_test_config(4097, NULL);
    hr_machine *m = NULL;
    const char *why = NULL;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, &why), HR_EINVAL);
    ck_assert(strstr(why, "4096") != NULL);
    cfg = hr_test_config(0, NULL);
    ck_assert_int_eq(hr_machine_create(&cfg, &m, &why), HR_EINVAL);
    cfg = hr_test_config(2, "telepathy");
    ck_assert_int_eq(hr_machine_create(&cfg, &m, &why), HR_EINVAL);
    ck_assert_str_eq(why, "unknown discipline 'telepathy' (disciplines: arbitrary, async, eager, "
                          "fifo, ocpc, priority, sync)");
    cfg = hr_test_config(2, NULL);
    cfg.cost_model = "logp";
    ck_assert_int_eq(hr_machine_create(&cfg, &m, &why), HR_EINVAL);
    ck_assert_str_eq(why, "unknown cost model 'logp' (cost models: bdm, loggp, bsp)");
    cfg = hr_test_config(2, "sync");
    cfg.buffer = 1024;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, &why), HR_EINVAL);
    cfg = hr_test_config(2, "eager");
    cfg.buffer = 1024;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, &why), HR_EINVAL);
    cfg = hr_test_config(2, NULL);
    cfg.topology = "moebius";
    ck_assert_int_eq(hr_machine_create(&cfg, &m, &why), HR_EINVAL);
    ck_assert_ptr_null(m);
    /* the names of --list */
    static const char *discs[] = { "arbitrary", "async", "eager", "fifo", "ocpc", "priority",
                                   "sync" };
    for (int i = 0; i < 7; i++)
        ck_assert_str_eq(hr_discipline_name(i, NULL), discs[i]);
    ck_assert_ptr_null(hr_discipline_name(7, NULL));
    ck_assert_str_eq(hr_topology_name(0, NULL), "complete");
    ck_assert_ptr_null(hr_topology_name(99, NULL));
}
END_TEST

/* A pointer that is not a live block of this hr_alloc is refused, and nothing changes. */
START_TEST(test_util_alloc_free_refuses_foreign_pointers)
{
    hr_alloc a = { 0 }, b = { 0 };
    char *x = hr__alloc(&a, 100), *big = hr__alloc(&a, 1u << 20), *y = hr__alloc(&b, 40);
    max_align_t stack[4] = { 0 };
    char *plain = malloc(64);
    ck_assert_ptr_nonnull(plain);
    ck_assert_int_eq(hr__alloc_free(&a, &stack[2]), HR_EINVAL);
    ck_assert_int_eq(hr__alloc_free(&a, x + 1), HR_EINVAL);   /* inside a block, misaligned */
    ck_assert_int_eq(hr__alloc_free(&a, y), HR_EINVAL);       /* b's */
    ck_assert_int_eq(hr__alloc_free(&a, plain), HR_EINVAL);
    ck_assert_uint_eq(a.live, 100 + (1u << 20));
    ck_assert_int_eq(hr__alloc_free(&a, big), HR_OK);
    ck_assert_int_eq(hr__alloc_free(&a, big), HR_EINVAL);     /* twice: it is in the cache now */
    ck_assert_int_eq(hr__alloc_free(&a, x), HR_OK);
    ck_assert_ptr_null(a.head);
    ck_assert_uint_eq(a.live, 0);
    ck_assert_int_eq(hr__alloc_free(&b, y), HR_OK);
    free(plain);
    hr__alloc_free_all(&a);
    hr__alloc_free_all(&b);
}
END_TEST

/* hr_free of what P1's hr_malloc did not give it: a stack array, a block freed already,
 * P0's block (sent over as a pointer value). */
enum { BAD_FREE_STACK, BAD_FREE_TWICE, BAD_FREE_OTHERS, BAD_FREE_NONE };

static void body_bad_free(hr_proc *p, void *arg)
{
    int what = *(int *)arg;
    max_align_t stack[4] = { 0 };
    char *mine = hr_malloc(p, 100);
    if (what == BAD_FREE_OTHERS) {
        if (hr_pid(p) == 0) {
            hr_send(p, 1, 0, &mine, sizeof mine);
            return;
        }
        char *theirs = NULL;
        hr_recv(p, 0, 0, &theirs, sizeof theirs, NULL);
        hr_free(p, theirs);
    }
    hr_free(p, mine);
    if (hr_pid(p) == 1 && what == BAD_FREE_STACK)
        hr_free(p, &stack[1]);
    if (hr_pid(p) == 1 && what == BAD_FREE_TWICE)
        hr_free(p, mine);
}

START_TEST(test_util_free_of_a_foreign_pointer_is_misuse)
{
    static const char *engines[] = { "threads", "fibers" };
    for (int e = 0; e < 2; e++) {
        hr_machine_config cfg = hr_test_config(2, NULL);
        cfg.engine = engines[e];
        hr_machine *m = NULL;
        const char *why = NULL;
        ck_assert_msg(hr_machine_create(&cfg, &m, &why) == HR_OK, "create: %s", why ? why : "?");
        for (int what = BAD_FREE_STACK; what <= BAD_FREE_NONE; what++) {
            /* A second free reads the header of a block malloc has back (alloc.c, is_live):
             * ThreadSanitizer, which cannot be asked first as ASan is, stops on that read. */
            if (HR_TEST_TSAN && what == BAD_FREE_TWICE)
                continue;
            hr_run_result res;
            ck_assert_int_eq(hr_machine_run(m, body_bad_free, &what, &res), HR_OK);
            if (what == BAD_FREE_NONE) {   /* the machine still runs after each misuse */
                ck_assert_msg(res.status == HR_OK, "%s: %s", engines[e], res.report);
                continue;
            }
            ck_assert_msg(res.status == HR_EMISUSE, "%s, case %d: status %d, report: %s",
                          engines[e], what, res.status, res.report);
            ck_assert_str_eq(res.report, "P1: misuse: hr_free: the pointer is not a live block "
                                         "hr_malloc gave P1 (freed already, another processor's, "
                                         "or not from hr_malloc)\n");
        }
        hr_machine_destroy(m);
    }
}
END_TEST

static void body_nothing(hr_proc *p, void *arg)
{
    (void)p;
    (void)arg;
}

/* NULL for the machine, the function or the result: HR_EINVAL, no crash, no change. */
START_TEST(test_util_machine_run_refuses_null)
{
    hr_machine_config cfg = hr_test_config(2, NULL);
    hr_machine *m = NULL;
    const char *why = NULL;
    ck_assert_msg(hr_machine_create(&cfg, &m, &why) == HR_OK, "create: %s", why ? why : "?");
    hr_run_result res;
    memset(&res, 0x5a, sizeof res);
    ck_assert_int_eq(hr_machine_run(NULL, body_nothing, NULL, &res), HR_EINVAL);
    ck_assert_int_eq(hr_machine_run(m, NULL, NULL, &res), HR_EINVAL);
    ck_assert_int_eq(hr_machine_run(m, body_nothing, NULL, NULL), HR_EINVAL);
    ck_assert_uint_eq(((unsigned char *)&res)[0], 0x5a);
    ck_assert_int_eq(hr_machine_run(m, body_nothing, NULL, &res), HR_OK);
    ck_assert_int_eq(res.status, HR_OK);
    hr_machine_destroy(m);
}
END_TEST

/* Memory of a failed run is reclaimed (LeakSanitizer checks), and hr_now, hr_seed report. */
static void body_alloc_then_fail(hr_proc *p, void *arg)
{
    (void)arg;
    void *keep = hr_malloc(p, 1000);
    (void)keep;
    hr_compute(p, 1500);
    if (hr_now(p) != 1.5e-6 || hr_seed(p) != 1)
        hr_fail(p, "clock or seed wrong");
    if (hr_pid(p) == 1)
        hr_fail(p, "on purpose");
}

START_TEST(test_util_failed_run_reclaims_memory)
{
    hr_machine_config cfg = hr_test_config(3, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_alloc_then_fail, NULL, &res);
    ck_assert_int_eq(res.status, HR_EFAIL);
    ck_assert_str_eq(res.report, "P1: on purpose\n");
    ck_assert_double_eq_tol(res.model_time_s, 1.5e-6, 1e-15);
}
END_TEST

Suite *hr_util_suite(void)
{
    Suite *s = suite_create("util");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_util_strerror_every_code);
    tcase_add_test(tc, test_util_alloc_tracks_and_frees);
    tcase_add_test(tc, test_util_alloc_recycles_large_blocks);
    tcase_add_test(tc, test_util_alloc_region_blocks);
    tcase_add_test(tc, test_util_alloc_region_reserves);
    tcase_add_test(tc, test_util_machine_config_checks);
    tcase_add_test(tc, test_util_failed_run_reclaims_memory);
    tcase_add_test(tc, test_util_alloc_free_refuses_foreign_pointers);
    tcase_add_test(tc, test_util_free_of_a_foreign_pointer_is_misuse);
    tcase_add_test(tc, test_util_machine_run_refuses_null);
    suite_add_tcase(s, tc);
    return s;
}
