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
    ck_assert_int_eq(hr__mbox_init(&box), HR_OK);
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
            int src = box.active[box.nactive - 1].src;
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

/* Sources far apart and one bit apart (a 2^20-cube's neighbours), listed and unlisted in a
 * scrambled order: after every step each source's list is found whole and in order, against a
 * count kept here, and the sorted copy names exactly the pending sources in increasing order. */
START_TEST(test_mailbox_sparse_sources)
{
    enum { NSRC = 600, EACH = 3 };
    static int srcs[NSRC], left[NSRC];
    for (int i = 0; i < NSRC; i++)
        srcs[i] = i < 20 ? 1 << i : i < 40 ? (1 << 19) ^ (1 << (i - 20)) : i * 1747 % 1048576;
    hr__mbox box;
    ck_assert_int_eq(hr__mbox_init(&box), HR_OK);
    for (int k = 0; k < EACH; k++)
        for (int i = 0; i < NSRC; i++) {
            hr_msg *m = calloc(1, sizeof *m);
            m->kind = HR_MSG_COPY;
            m->src = srcs[i];
            m->seq = (uint64_t)k;
            hr__mbox_put(&box, m);
            left[i]++;
        }
    ck_assert_int_eq(hr__mbox_drain(&box), 1);
    ck_assert_int_eq(box.nactive, NSRC);        /* the sources are distinct */
    uint64_t step = 0;
    for (int round = 0; round < NSRC * EACH; round++) {
        int i = (int)((step += 7919) % NSRC);
        while (left[i] == 0)
            i = (i + 1) % NSRC;
        hr_msg *prev;
        hr_msg *m = hr__mbox_find(&box, srcs[i], HR_ANY_TAG, &prev);
        ck_assert_ptr_nonnull(m);
        ck_assert_int_eq(m->src, srcs[i]);
        hr__mbox_remove(&box, srcs[i], prev, m);
        free(m);
        left[i]--;
        if (round % 97 == 0) {
            int n, pending = 0;
            hr__mbox_src *v = hr__mbox_sorted(&box, &n);
            for (int j = 0; j < NSRC; j++) {
                int count = 0;
                for (hr_msg *x = hr__mbox_head(&box, srcs[j]); x != NULL; x = x->next)
                    ck_assert_uint_eq(x->seq, (uint64_t)(EACH - left[j] + count++));
                ck_assert_int_eq(count, left[j]);
                pending += left[j] > 0;
            }
            ck_assert_int_eq(n, pending);
            for (int j = 1; j < n; j++)
                ck_assert_int_lt(v[j - 1].src, v[j].src);
            free(v);
        }
    }
    ck_assert_int_eq(box.nactive, 0);
    hr__mbox_destroy(&box);
}
END_TEST

START_TEST(test_mailbox_find_by_tag)
{
    hr__mbox box;
    ck_assert_int_eq(hr__mbox_init(&box), HR_OK);
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

static hr_msg *msg_from(int src, uint64_t seq)
{
    hr_msg *m = calloc(1, sizeof *m);
    ck_assert_ptr_nonnull(m);
    m->kind = HR_MSG_COPY;
    m->src = src;
    m->seq = seq;
    return m;
}

/* The put of one processor at a time: listed at once, without a drain, while the queue is
 * empty; behind the queue while it holds anything, so that a source's order stays its sending
 * order (seq 0 .. 4 from source 3, whichever way each came). */
START_TEST(test_mailbox_serial_put)
{
    /* on a mailbox told it is serial (hr__mbox_serial), which keeps count of what it queued,
     * and on one that is not */
    for (int serial = 0; serial < 2; serial++) {
        hr__mbox box;
        ck_assert_int_eq(hr__mbox_init(&box), HR_OK);
        if (serial)
            hr__mbox_serial(&box);
        hr_msg *prev;
        hr__mbox_put_serial(&box, msg_from(3, 0));
        ck_assert_int_eq(box.nactive, 1);                       /* no drain */
        ck_assert_uint_eq(hr__mbox_find(&box, 3, HR_ANY_TAG, &prev)->seq, 0);
        hr__mbox_put(&box, msg_from(3, 1));                      /* queued, not listed */
        hr__mbox_put_serial(&box, msg_from(3, 2));               /* so this one queues behind it */
        hr__mbox_put_serial(&box, msg_from(9, 0));
        ck_assert_int_eq(box.nactive, 1);
        ck_assert_int_eq(hr__mbox_drain(&box), 1);
        hr__mbox_put_serial(&box, msg_from(3, 3));               /* the queue is empty again */
        hr__mbox_put_serial(&box, msg_from(3, 4));
        ck_assert_int_eq(box.nactive, 2);
        for (uint64_t k = 0; k < 5; k++) {
            hr_msg *m = hr__mbox_find(&box, 3, HR_ANY_TAG, &prev);
            ck_assert_ptr_nonnull(m);
            ck_assert_uint_eq(m->seq, k);
            hr__mbox_remove(&box, 3, prev, m);
            free(m);
        }
        ck_assert_ptr_null(hr__mbox_find(&box, 3, HR_ANY_TAG, &prev));
        ck_assert_uint_eq(hr__mbox_find(&box, 9, HR_ANY_TAG, &prev)->seq, 0);
        hr__mbox_destroy(&box);   /* frees source 9's */
    }
}
END_TEST

/* The lane of a receive asleep on source 3, tag 5: a message of another tag is listed; the first
 * that matches is put aside, not listed; the next goes behind in the list. Only a receive it
 * matches takes it. Unarmed, nothing more is put aside. A message left in the lane goes back in
 * its place by sequence number when the mailbox is drained, and is freed when it is cleared. */
START_TEST(test_mailbox_lane)
{
    hr__mbox box;
    ck_assert_int_eq(hr__mbox_init(&box), HR_OK);
    hr_msg *prev, *m;
    hr__mbox_arm(&box, 3, 5, 0);
    m = msg_from(3, 0);
    m->tag = 4;
    hr__mbox_put_serial(&box, m);                            /* another tag: listed */
    hr__mbox_put_serial(&box, msg_from(7, 0));               /* another source: listed */
    ck_assert_ptr_null(box.lane);
    m = msg_from(3, 1);
    m->tag = 5;
    hr__mbox_put_serial(&box, m);
    ck_assert_ptr_eq(box.lane, m);                           /* the match: put aside */
    ck_assert_int_eq(box.lane_src, -1);                      /* and the lane holds one only */
    m = msg_from(3, 2);
    m->tag = 5;
    hr__mbox_put_serial(&box, m);
    ck_assert_ptr_eq(hr__mbox_find(&box, 3, 5, &prev), m);   /* the next one is listed */
    ck_assert_ptr_null(hr__mbox_unarm(&box, 2, 5));          /* not for another source */
    ck_assert_ptr_null(hr__mbox_unarm(&box, 3, 4));          /* nor another tag */
    ck_assert_ptr_null(hr__mbox_unarm(&box, HR_ANY, 5));     /* nor a receive from any */
    m = hr__mbox_unarm(&box, 3, HR_ANY_TAG);
    ck_assert_uint_eq(m->seq, 1);
    ck_assert_ptr_null(box.lane);
    free(m);                                                 /* taken */
    hr__mbox_put_serial(&box, msg_from(3, 3));               /* unarmed: listed as it comes */
    ck_assert_ptr_null(box.lane);
    /* Put aside and left there: a drain puts it back in sending order, behind seq 3 (listed
     * when the lane was armed) and ahead of seq 5 (listed after it). */
    hr__mbox_arm(&box, 3, 6, 0);
    m = msg_from(3, 4);
    m->tag = 6;
    hr__mbox_put_serial(&box, m);
    ck_assert_ptr_eq(box.lane, m);
    hr__mbox_put_serial(&box, msg_from(3, 5));
    ck_assert_int_eq(hr__mbox_drain(&box), 1);
    ck_assert_ptr_null(box.lane);
    uint64_t want[] = { 0, 2, 3, 4, 5 };
    m = hr__mbox_head(&box, 3);
    for (int k = 0; k < 5; k++, m = m->next)
        ck_assert_uint_eq(m->seq, want[k]);
    ck_assert_ptr_null(m);
    ck_assert_uint_eq(hr__mbox_find(&box, 3, 6, &prev)->seq, 4);
    ck_assert_uint_eq(prev->seq, 3);
    /* A message of a source with nothing listed goes back as that source's list. */
    hr__mbox_arm(&box, 8, HR_ANY_TAG, 0);
    hr__mbox_put_serial(&box, msg_from(8, 0));
    ck_assert_int_eq(box.nactive, 2);
    ck_assert_int_eq(hr__mbox_drain(&box), 1);
    ck_assert_int_eq(box.nactive, 3);
    ck_assert_uint_eq(hr__mbox_find(&box, 8, HR_ANY_TAG, &prev)->seq, 0);
    /* Left in the lane at the end: freed with the rest (ASan would see a leak). */
    hr__mbox_arm(&box, 9, HR_ANY_TAG, 0);
    hr__mbox_put_serial(&box, msg_from(9, 0));
    ck_assert_ptr_nonnull(box.lane);
    hr__mbox_destroy(&box);
}
END_TEST

/* A receive armed open is found by a sender from its source with a tag it takes
 * (hr__mbox_posted), who may complete it; armed closed, or for another source or tag, it is not.
 * On a serial mailbox, a message that goes into the queue unarms the lane it matches (it is
 * taken from there, before any later one), and the queue it was put in is drained although the
 * drain looks at nothing but the mailbox's count of what was queued. A message put back from
 * the lane goes to its place in its source's list. */
START_TEST(test_mailbox_posted)
{
    hr__mbox box;
    hr_msg *prev;
    ck_assert_int_eq(hr__mbox_init(&box), HR_OK);
    hr__mbox_serial(&box);
    hr__mbox_arm(&box, 3, 5, 1);
    ck_assert(hr__mbox_posted(&box, 3, 5));
    ck_assert(!hr__mbox_posted(&box, 3, 4));                 /* another tag */
    ck_assert(!hr__mbox_posted(&box, 2, 5));                 /* another source */
    hr__mbox_arm(&box, 3, HR_ANY_TAG, 1);
    ck_assert(hr__mbox_posted(&box, 3, 0));
    ck_assert(hr__mbox_posted(&box, 3, 77));
    hr__mbox_arm(&box, 3, 5, 0);                             /* one no sender completes */
    ck_assert(!hr__mbox_posted(&box, 3, 5));
    ck_assert_ptr_null(hr__mbox_unarm(&box, 3, 5));
    hr__mbox_arm(&box, 3, 5, 1);
    ck_assert_ptr_null(hr__mbox_unarm(&box, 3, 5));
    ck_assert(!hr__mbox_posted(&box, 3, 5));                 /* unarmed */
    /* Queued while armed (a bounded buffer's put, say): the lane lets it be. */
    hr__mbox_arm(&box, 3, 5, 1);
    hr_msg *m = msg_from(3, 0);
    m->tag = 5;
    hr__mbox_put(&box, m);
    ck_assert(!hr__mbox_posted(&box, 3, 5));
    ck_assert_ptr_null(box.lane);
    ck_assert_int_eq(box.nactive, 0);
    ck_assert_int_eq(hr__mbox_drain(&box), 1);
    ck_assert_ptr_eq(hr__mbox_find(&box, 3, 5, &prev), m);
    hr__mbox_remove(&box, 3, prev, m);
    free(m);
    /* Queued from another source, or with another tag: the lane stays armed. */
    hr__mbox_arm(&box, 3, 5, 1);
    hr__mbox_put(&box, msg_from(4, 0));
    m = msg_from(3, 1);
    m->tag = 4;
    hr__mbox_put(&box, m);
    ck_assert(hr__mbox_posted(&box, 3, 5));
    ck_assert_int_eq(hr__mbox_drain(&box), 1);
    ck_assert_int_eq(box.nactive, 2);
    ck_assert(hr__mbox_posted(&box, 3, 5));
    /* Nothing queued since: a drain finds nothing new, and a put_serial goes to the lane. */
    ck_assert_int_eq(hr__mbox_drain(&box), 1);
    ck_assert_int_eq(box.nactive, 2);
    m = msg_from(3, 2);
    m->tag = 5;
    hr__mbox_put_serial(&box, m);
    ck_assert_ptr_eq(box.lane, m);
    ck_assert(!hr__mbox_posted(&box, 3, 5));
    /* Taken from the lane and not taken after all (too large for the receive): back in its
     * place, behind seq 1 of its source. */
    ck_assert_ptr_eq(hr__mbox_unarm(&box, 3, 5), m);
    hr__mbox_putback(&box, m);
    ck_assert_ptr_null(box.lane);
    ck_assert_ptr_eq(hr__mbox_find(&box, 3, 5, &prev), m);
    ck_assert_uint_eq(prev->seq, 1);
    hr__mbox_destroy(&box);   /* frees the listed */
}
END_TEST

Suite *hr_mailbox_suite(void)
{
    Suite *s = suite_create("mailbox");
    TCase *tc = tcase_create("threads");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_mailbox_many_producers);
    tcase_add_test(tc, test_mailbox_find_by_tag);
    tcase_add_test(tc, test_mailbox_sparse_sources);
    tcase_add_test(tc, test_mailbox_serial_put);
    tcase_add_test(tc, test_mailbox_lane);
    tcase_add_test(tc, test_mailbox_posted);
    suite_add_tcase(s, tc);
    return s;
}
