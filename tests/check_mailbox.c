/* check_mailbox.c: the mailbox under many producers: nothing lost, nothing doubled, per-producer
 * order kept, per-source lists and the active set consistent. */
#include "hr_test.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "core/core.h"

enum { PRODUCERS = 8, PER = HR_TEST_TSAN ? 2000 : 20000 };

typedef struct prod_arg {
    hr__mbox   *box;
    int         id;
    atomic_int *done;
} prod_arg;

static void *producer(void *arg)
{
    prod_arg *a = arg;
    for (int k = 0; k < PER; k++) {
        hr_msg *m = calloc(1, sizeof *m);
        if (m == NULL)
            abort();
        m->kind = HR_MSG_COPY;
        m->src = a->id;
        m->tag = k % 3;
        m->seq = (uint64_t)k;
        hr__mbox_put(a->box, m);
    }
    atomic_fetch_add(a->done, 1);
    return NULL;
}

START_TEST(test_mailbox_many_producers)
{
    hr__mbox box;
    ck_assert_int_eq(hr__mbox_init(&box, PRODUCERS), HR_OK);
    pthread_t t[PRODUCERS];
    prod_arg args[PRODUCERS];
    atomic_int done = 0;
    for (int i = 0; i < PRODUCERS; i++) {
        args[i] = (prod_arg){ &box, i, &done };
        ck_assert_int_eq(pthread_create(&t[i], NULL, producer, &args[i]), 0);
    }
    /* The test thread consumes while producers run, and one last time after they all finished. */
    uint64_t next[PRODUCERS] = { 0 };
    long got = 0;
    for (int last = 0; !last;) {
        last = atomic_load(&done) == PRODUCERS;
        hr__mbox_drain(&box);
        while (box.nactive > 0) {
            int src = box.active[box.nactive - 1];
            hr_msg *prev;
            hr_msg *m = hr__mbox_find(&box, src, HR_ANY_TAG, &prev);
            ck_assert_ptr_nonnull(m);
            ck_assert_ptr_null(prev);
            ck_assert_uint_eq(m->seq, next[src]);
            next[src]++;
            hr__mbox_remove(&box, src, prev, m);
            free(m);
            got++;
        }
    }
    for (int i = 0; i < PRODUCERS; i++)
        ck_assert_int_eq(pthread_join(t[i], NULL), 0);
    ck_assert_int_eq(got, (long)PRODUCERS * PER);
    for (int i = 0; i < PRODUCERS; i++)
        ck_assert_uint_eq(next[i], PER);
    hr__mbox_destroy(&box);
}
END_TEST

START_TEST(test_mailbox_find_by_tag)
{
    hr__mbox box;
    ck_assert_int_eq(hr__mbox_init(&box, 3), HR_OK);
    int tags[] = { 4, HR__TAG_COLL, 7, 4 };
    for (int k = 0; k < 4; k++) {
        hr_msg *m = calloc(1, sizeof *m);
        m->kind = HR_MSG_COPY;
        m->src = 2;
        m->tag = tags[k];
        m->seq = (uint64_t)k;
        hr__mbox_put(&box, m);
    }
    hr__mbox_drain(&box);
    hr_msg *prev, *m;
    m = hr__mbox_find(&box, 2, 7, &prev);
    ck_assert_uint_eq(m->seq, 2);
    m = hr__mbox_find(&box, 2, HR__TAG_COLL, &prev);
    ck_assert_uint_eq(m->seq, 1);
    hr__mbox_remove(&box, 2, prev, m);
    free(m);
    /* any user tag skips internal tags */
    m = hr__mbox_find(&box, 2, HR_ANY_TAG, &prev);
    ck_assert_uint_eq(m->seq, 0);
    ck_assert_ptr_null(hr__mbox_find(&box, 1, HR_ANY_TAG, &prev));
    ck_assert_ptr_null(hr__mbox_find(&box, 2, 5, &prev));
    ck_assert_int_eq(box.nactive, 1);
    hr__mbox_destroy(&box);   /* frees the three left */
}
END_TEST

Suite *hr_mailbox_suite(void)
{
    Suite *s = suite_create("mailbox");
    TCase *tc = tcase_create("threads");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_mailbox_many_producers);
    tcase_add_test(tc, test_mailbox_find_by_tag);
    suite_add_tcase(s, tc);
    return s;
}
