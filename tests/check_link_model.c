/* check_link_model.c: the table of link models (net/link_model.c), each row's timing of a route
 * by hand on a ring, and what every row must do on any route (a new row is checked by the
 * last test without a line added here). Straight through hr__net_route, no machine. */
#include "hr_test.h"

#include <string.h>

#include "net/network.h"

START_TEST(test_link_model_table)
{
    /* The public numbers: hr_machine_config.switching 0 and 1, hr_store_forward. */
    ck_assert_str_eq(hr__link_model_name(HR_NET_CUT_THROUGH, NULL), "cut_through");
    ck_assert_str_eq(hr__link_model_name(HR_NET_STORE_FORWARD, NULL), "store_forward");
    ck_assert_int_eq(hr__link_model_find("store_forward"), HR_NET_STORE_FORWARD);
    ck_assert_int_eq(hr__link_model_find("store-forward"), -1);
    ck_assert_int_eq(hr__link_model_find(""), -1);
    ck_assert_ptr_null(hr__link_model_at(-1));
    ck_assert_ptr_null(hr__link_model_name(-1, NULL));
    int n = 0;
    const char *summary = NULL;
    for (const char *name; (name = hr__link_model_name(n, &summary)) != NULL; n++) {
        const hr_link_model *m = hr__link_model_at(n);
        ck_assert_ptr_nonnull(m);
        ck_assert_ptr_eq(m->name, name);
        ck_assert_ptr_eq(m->summary, summary);
        ck_assert_ptr_nonnull(m->cross);
        ck_assert_int_gt(strlen(summary), 10);
        /* A config word: lower case, digits and '_', as [machine] switching = NAME reads it. */
        ck_assert_int_gt(strlen(name), 0);
        ck_assert_uint_eq(strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_"), strlen(name));
        ck_assert_int_eq(hr__link_model_find(name), n);   /* and so unique */
    }
    ck_assert_int_ge(n, 2);
    ck_assert_ptr_null(hr__link_model_at(n));
    /* The choice in words: "a or b", "a, b or c". */
    char buf[256], want[256] = "";
    hr__link_model_choices(buf, sizeof buf);
    for (int i = 0; i < n; i++) {
        strcat(want, i == 0 ? "" : i < n - 1 ? ", " : " or ");
        strcat(want, hr__link_model_name(i, NULL));
    }
    ck_assert_str_eq(buf, want);
    if (n == 2)
        ck_assert_str_eq(buf, "cut_through or store_forward");
    char small[8];
    hr__link_model_choices(small, sizeof small);
    ck_assert_str_eq(small, "cut_thr");
}
END_TEST

START_TEST(test_link_model_machine_takes_rows_only)
{
    /* hr_machine_config.switching is a row's number: every row is a machine, nothing else. */
    hr_machine_config cfg = hr_test_config(4, NULL);
    cfg.topology = "ring";
    const char *why = NULL;
    int n = 0;
    for (; hr__link_model_at(n) != NULL; n++) {
        cfg.switching = n;
        ck_assert_int_eq(hr_machine_check(&cfg, &why), HR_OK);
    }
    int bad[] = { -1, n, n + 1 };
    for (int i = 0; i < 3; i++) {
        cfg.switching = bad[i];
        ck_assert_int_eq(hr_machine_check(&cfg, &why), HR_EINVAL);
        ck_assert_ptr_nonnull(strstr(why, "switching"));
    }
}
END_TEST

/* Every reservation the network announced, in order. */
typedef struct reservations {
    int     n;
    int     link[16];
    hr_time from[16], until[16];
} reservations;

static void note(void *arg, int l, hr_time t0, hr_time t1, size_t bytes)
{
    reservations *r = arg;
    (void)bytes;
    ck_assert_int_lt(r->n, 16);
    r->link[r->n] = l;
    r->from[r->n] = t0;
    r->until[r->n] = t1;
    r->n++;
}

/* A network of the topology spec on p processors with cm5's costs (tau 88 us, 50 us for 1000
 * bytes, hop 0) or hop = 1 us, with link model `model`; reservations go to r. */
typedef struct fixture {
    hr_topo     *topo;
    hr_costps    cost;
    hr_net       net;
    reservations r;
} fixture;

static void fixture_make(fixture *f, const char *spec, int p, int model, double hop)
{
    char why[256];
    const char *bad = NULL;
    hr_cost c;
    *f = (fixture){ 0 };
    ck_assert_int_eq(hr_cost_preset("cm5", &c), HR_OK);
    c.hop = hop;
    ck_assert_int_eq(hr__cost_convert(&c, &f->cost, &bad), HR_OK);
    ck_assert_int_eq(hr__topo_make(spec, p, &f->topo, why, sizeof why), 0);
    ck_assert_int_eq(hr__net_init(&f->net, f->topo, &f->cost, model), HR_OK);
    f->net.busy = note;
    f->net.busy_arg = &f->r;
}

static void fixture_destroy(fixture *f)
{
    hr__net_destroy(&f->net);
    hr__topo_destroy(f->topo);
}

#define US 1000000   /* picoseconds */

START_TEST(test_link_model_ring_by_hand)
{
    /* ring 4, 1000 bytes from 0 to 2 (links 0-1, 1-2) and then from 1 to 3 (1-2, 2-3), both
     * injected at 0 (docs/model.md's worked example). Cut-through: 0 -> 2 holds both links from 0
     * to 50 us, head at 88 us, the last byte at 138, so the receiver starts at 88 (138 - 50);
     * 1 -> 3 waits for 1-2, s = 50, head at 138. */
    fixture f;
    fixture_make(&f, "ring", 4, HR_NET_CUT_THROUGH, 0);
    int l01 = hr__topo_link(f.topo, 0, 1), l12 = hr__topo_link(f.topo, 1, 2),
        l23 = hr__topo_link(f.topo, 2, 3);
    ck_assert_int_eq(hr__net_route(&f.net, 0, 2, 0, 1000), 88 * US);
    ck_assert_int_eq(hr__net_route(&f.net, 1, 3, 0, 1000), 138 * US);
    ck_assert_int_eq(f.r.n, 4);
    int cut_link[4] = { l01, l12, l12, l23 };
    hr_time cut_from[4] = { 0, 0, 50 * US, 50 * US },
            cut_until[4] = { 50 * US, 50 * US, 100 * US, 100 * US };
    for (int k = 0; k < 4; k++) {
        ck_assert_int_eq(f.r.link[k], cut_link[k]);
        ck_assert_int_eq(f.r.from[k], cut_from[k]);
        ck_assert_int_eq(f.r.until[k], cut_until[k]);
    }
    /* The same network again from time 0 after a reset. */
    hr__net_reset(&f.net);
    ck_assert_int_eq(hr__net_route(&f.net, 1, 3, 0, 1000), 88 * US);
    fixture_destroy(&f);

    /* Store-and-forward: 0 -> 2 takes 0-1 from 0 to 50 us and 1-2 from 50 to 100, whole at P2
     * at 188, so the receiver starts at 138; 1 -> 3 waits for 1-2 until 100, takes 2-3 from 150
     * to 200, whole at 288, starts at 238. */
    fixture_make(&f, "ring", 4, HR_NET_STORE_FORWARD, 0);
    ck_assert_int_eq(hr__net_route(&f.net, 0, 2, 0, 1000), 138 * US);
    ck_assert_int_eq(hr__net_route(&f.net, 1, 3, 0, 1000), 238 * US);
    ck_assert_int_eq(f.r.n, 4);
    hr_time sf_from[4] = { 0, 50 * US, 100 * US, 150 * US },
            sf_until[4] = { 50 * US, 100 * US, 150 * US, 200 * US };
    for (int k = 0; k < 4; k++) {
        ck_assert_int_eq(f.r.link[k], cut_link[k]);
        ck_assert_int_eq(f.r.from[k], sf_from[k]);
        ck_assert_int_eq(f.r.until[k], sf_until[k]);
    }
    /* Ten bytes (0.5 us) with hop = 1 us: whole at P2 at 2 * 1.5 + 88 = 91 us; the head's
     * bound, 88 + 2, is below 91 - 0.5. */
    fixture_destroy(&f);
    fixture_make(&f, "ring", 4, HR_NET_STORE_FORWARD, 1e-6);
    ck_assert_int_eq(hr__net_route(&f.net, 0, 2, 0, 10), 90500000);
    fixture_destroy(&f);
}
END_TEST

START_TEST(test_link_model_every_row_on_any_route)
{
    /* What any link model must do, on a ring and on a fat tree (links of several bandwidths):
     * a lone message takes each link of its route once, in route order, no earlier than its
     * injection and for a positive time; the receiver starts no earlier than the head could
     * arrive on idle links (tau + hops*hop), and not before the bytes could come at the
     * slowest link's rate; a second message on the same route right after it starts no earlier
     * than the first (a link carries one message at a time). */
    const char *specs[] = { "ring", "fattree 20M 10M 5M" };
    for (int i = 0; hr__link_model_at(i) != NULL; i++) {
        for (int s = 0; s < 2; s++) {
            fixture f;
            fixture_make(&f, specs[s], 8, i, 1e-6);
            int route[16], h = f.topo->route(f.topo, 1, 6, route);
            ck_assert_int_ge(h, 2);
            ck_assert_int_le(h, 16);
            hr_time t = 7 * US, a = hr__net_route(&f.net, 1, 6, t, 4000), slowest = 0;
            ck_assert_int_eq(f.r.n, h);
            for (int k = 0; k < h; k++) {
                ck_assert_int_eq(f.r.link[k], route[k]);
                ck_assert_int_ge(f.r.from[k], t);
                ck_assert_int_gt(f.r.until[k], f.r.from[k]);
                ck_assert_int_eq(f.net.free_at[route[k]], f.r.until[k]);
                hr_time carry = hr__net_carry(&f.net, route[k], 4000);
                slowest = carry > slowest ? carry : slowest;
            }
            ck_assert_int_ge(a, t + hr__net_latency(f.topo, &f.cost, 1, 6));
            ck_assert_int_ge(a + hr__cost_bytes(&f.cost, 4000), t + slowest);
            ck_assert_int_ge(hr__net_route(&f.net, 1, 6, t, 4000), a + 1);
            ck_assert_int_eq(hr__net_route(&f.net, 3, 3, t, 4000), t);   /* to oneself */
            fixture_destroy(&f);
        }
    }
}
END_TEST

Suite *hr_link_model_suite(void)
{
    Suite *s = suite_create("link_model");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_link_model_table);
    tcase_add_test(tc, test_link_model_machine_takes_rows_only);
    tcase_add_test(tc, test_link_model_ring_by_hand);
    tcase_add_test(tc, test_link_model_every_row_on_any_route);
    suite_add_tcase(s, tc);
    return s;
}
