/* check_report.c: the CSV, JSON-lines and table formats against hand-written expected text. */
#include "hr_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report.h"

/* The columns of the keys workload kinds declare sit between dataset and buffer, one a column
 * (hr_workload_column_at): these expectations take them from the registry, so that a new kind
 * does not change what this file checks; test_report_declared checks them by hand. */
static char csv_header[2048], settings[512], json_declared[1024];

static void expectations(void)
{
    char names[1024] = "", commas[256] = "";
    json_declared[0] = '\0';
    const hr_wkey_spec *k;
    for (int i = 0; (k = hr_workload_column_at(i)) != NULL; i++) {
        strcat(names, hr_wkey_column(k));
        strcat(names, ",");
        strcat(commas, ",");
        strcat(json_declared, "\"");
        strcat(json_declared, hr_wkey_column(k));
        strcat(json_declared, "\":null,");
    }
    snprintf(csv_header, sizeof csv_header,
             "algorithm,procs,n,h,discipline,topology,cost,seed,model_time_s,rounds,messages,bytes,"
             "max_out_bytes,max_in_bytes,wall_s,verified,steps,rounds_per_h,lost,stalls,status,"
             "engine,hosts,stack,carriers,distribution,dataset,%sbuffer,eager_limit,switching,cost_model,tau,sigma,overhead,hop,gap,compute_unit,"
             "compute,model,repeat,params,plan_s,plan_steps,supersteps,bsp_w,bsp_h\n", names);
    /* The sample's settings, as the columns after status print them, up to params. */
    snprintf(settings, sizeof settings, "threads,1,,,skewed,,%sunlimited,,cut_through,bdm,8.8e-05,5e-08,0,0,0,1e-09,"
             "units,on,3,", commas);
}

/* How many columns of declared keys there are. */
static int declared_columns(void)
{
    int n = 0;
    while (hr_workload_column_at(n) != NULL)
        n++;
    return n;
}

static hr_row sample(void)
{
    hr_row r = {
        .algorithm = "hrel.direct", .procs = 16, .n = 1048576, .h = 262144,
        .discipline = "async", .topology = "complete", .cost = "cm5", .seed = 1,
        .model_time_s = 0.1, .rounds = 2, .messages = 347, .bytes = 7866224,
        .max_out_bytes = 524408, .max_in_bytes = 1966200, .wall_s = 0.25, .verified = 1,
        .steps = 30,
        .stalls = 0, .status = "ok", .engine = "threads", .hosts = 1,
        .distribution = "skewed", .dataset = NULL, .buffer = 0, .buffered = 1,
        .cost_model = "bdm", .tau = 88e-6, .sigma = 5e-8, .compute_unit = 1e-9, .repeat = 3,
        .params = "",
    };
    return r;
}

/* The columns the command leaves out of the table of rows on async (cli.c): nothing of rounds,
 * losses or stalls. */
static const hr_report_rows async_rows = { .traits = 0 };

/* Write rows in format into a string (the caller frees it), the default table knowing what the
 * sweep's rows can have (can; NULL: anything); dropped (may be NULL) gets the table's columns left out to fit. */
static char *render_hide(hr_format format, const hr_row *rows, int n, const hr_report_rows *can,
                         char *dropped, size_t dlen)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    hr_report r;
    ck_assert_int_eq(hr__report_pick(&r, NULL, 0, can, NULL, 0), HR_OK);
    hr__report_start(&r, f, format);
    for (int i = 0; i < n; i++)
        hr__report_row(&r, &rows[i]);
    ck_assert_int_eq(hr__report_end(&r), HR_OK);
    fclose(f);
    if (dropped != NULL)
        snprintf(dropped, dlen, "%s", r.dropped);
    return buf;
}

/* Write rows in format into a string (the caller frees it). */
static char *render(hr_format format, const hr_row *rows, int n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    hr_report r;
    hr__report_begin(&r, f, format);
    for (int i = 0; i < n; i++)
        hr__report_row(&r, &rows[i]);
    ck_assert_int_eq(hr__report_end(&r), HR_OK);
    ck_assert_uint_eq(r.rows, (size_t)n);
    fclose(f);
    return buf;
}

START_TEST(test_report_format_names)
{
    hr_format f = HR_FORMAT_JSON;
    ck_assert_int_eq(hr__report_format("table", &f), HR_OK);
    ck_assert_int_eq(f, HR_FORMAT_TABLE);
    ck_assert_int_eq(hr__report_format("csv", &f), HR_OK);
    ck_assert_int_eq(f, HR_FORMAT_CSV);
    ck_assert_int_eq(hr__report_format("json", &f), HR_OK);
    ck_assert_int_eq(f, HR_FORMAT_JSON);
    ck_assert_int_eq(hr__report_format("CSV", &f), HR_EINVAL);
    ck_assert_int_eq(hr__report_format("", &f), HR_EINVAL);
}
END_TEST

START_TEST(test_report_csv)
{
    hr_row rows[2] = { sample(), sample() };
    rows[1].verified = 0;
    rows[1].status = "wrong";
    rows[1].model_time_s = 1.0 / 3.0;   /* 16 digits read back exactly, 15 do not */
    rows[1].params = "K=1.5 r=8";
    rows[1].distribution = NULL;       /* a sort: a dataset and no distribution */
    rows[1].dataset = "R";
    rows[1].buffer = 65536;
    rows[1].eager = 1;                 /* eager_limit is shown under eager only */
    rows[1].eager_limit = 8192;
    rows[1].sigma = nextafter(5e-8, 1.0);     /* one ulp away: must not print as 5e-08 */
    rows[1].overhead = 1e-6;
    rows[1].measured = 1;
    rows[1].repeat = 1;
    rows[1].planned = 1;
    rows[1].plan_s = 0.5;
    rows[1].plan_steps = 6;
    rows[1].has_supersteps = 1;
    rows[1].supersteps = 2;
    rows[1].bsp_w = 1.5e-6;
    rows[1].bsp_h = 4000;
    char *out = render(HR_FORMAT_CSV, rows, 2);
    char want[4096], commas[256] = "";
    for (int i = 0; hr_workload_column_at(i) != NULL; i++)
        strcat(commas, ",");
    expectations();
    snprintf(want, sizeof want, "%s"
             "hrel.direct,16,1048576,262144,async,complete,cm5,1,0.1,2,347,7866224,524408,"
             "1966200,0.25,true,30,7.62939453125e-06,0,0,ok,%s,,,,,\n"
             "hrel.direct,16,1048576,262144,async,complete,cm5,1,0.3333333333333333,2,347,"
             "7866224,524408,1966200,0.25,false,30,7.62939453125e-06,0,0,wrong,threads,1,,,,R,%s65536,8192,cut_through,bdm,"
             "8.8e-05,5.0000000000000004e-08,1e-06,0,0,1e-09,measured,on,1,K=1.5 r=8,0.5,6,2,1.5e-06,4000\n",
             csv_header, settings, commas);
    ck_assert_str_eq(out, want);
    free(out);
}
END_TEST

/* [run] model = off: the model's columns are empty (null in JSON), wall_s and the rest are
 * there, and the model column says off. */
START_TEST(test_report_model_off)
{
    hr_row r = sample();
    r.model_off = 1;
    char *out = render(HR_FORMAT_CSV, &r, 1), want[4096], commas[256] = "";
    for (int i = 0; hr_workload_column_at(i) != NULL; i++)
        strcat(commas, ",");
    expectations();
    snprintf(want, sizeof want, "%shrel.direct,16,1048576,262144,async,complete,cm5,1,,,,,,,0.25,"
             "true,,,,,ok,threads,1,,,skewed,,%sunlimited,,cut_through,bdm,8.8e-05,5e-08,0,0,0,1e-09,"
             "units,off,3,,,,,,\n", csv_header, commas);
    ck_assert_str_eq(out, want);
    free(out);
    out = render(HR_FORMAT_JSON, &r, 1);
    ck_assert_msg(strstr(out, "\"model_time_s\":null,\"rounds\":null,\"messages\":null") != NULL &&
                  strstr(out, "\"wall_s\":0.25") != NULL &&
                  strstr(out, "\"model\":\"off\"") != NULL, "%s", out);
    free(out);
}
END_TEST

/* Fields with commas, quotes or newlines are quoted, inner quotes doubled (RFC 4180). */
START_TEST(test_report_csv_quoting)
{
    hr_row r = sample();
    r.topology = "mesh 4x4";
    r.cost = "a,b";
    r.algorithm = "say \"hi\"";
    r.params = "x\ny";
    char *out = render(HR_FORMAT_CSV, &r, 1), want[2048];
    expectations();
    const char *row = out + strlen(csv_header);
    snprintf(want, sizeof want, "\"say \"\"hi\"\"\",16,1048576,262144,async,mesh 4x4,\"a,b\",1,0.1,2,"
             "347,7866224,524408,1966200,0.25,true,30,7.62939453125e-06,0,0,ok,%s\"x\ny\",,,,,\n",
             settings);
    ck_assert_str_eq(row, want);
    free(out);
}
END_TEST

START_TEST(test_report_json)
{
    hr_row r = sample();
    r.seed = 18446744073709551615ull;
    r.model_time_s = 1e-300;
    char *out = render(HR_FORMAT_JSON, &r, 1), want[4096];
    expectations();
    snprintf(want, sizeof want,
        "{\"algorithm\":\"hrel.direct\",\"procs\":16,\"n\":1048576,\"h\":262144,"
        "\"discipline\":\"async\",\"topology\":\"complete\",\"cost\":\"cm5\","
        "\"seed\":18446744073709551615,\"model_time_s\":1e-300,\"rounds\":2,\"messages\":347,"
        "\"bytes\":7866224,\"max_out_bytes\":524408,\"max_in_bytes\":1966200,\"wall_s\":0.25,"
        "\"verified\":true,\"steps\":30,\"rounds_per_h\":7.62939453125e-06,\"lost\":0,\"stalls\":0,"
        "\"status\":\"ok\",\"engine\":\"threads\",\"hosts\":1,\"stack\":null,\"carriers\":null,\"distribution\":\"skewed\",\"dataset\":\"\",%s"
        "\"buffer\":\"unlimited\",\"eager_limit\":null,\"switching\":\"cut_through\","
        "\"cost_model\":\"bdm\",\"tau\":8.8e-05,\"sigma\":5e-08,\"overhead\":0,\"hop\":0,\"gap\":0,\"compute_unit\":1e-09,"
        "\"compute\":\"units\",\"model\":\"on\",\"repeat\":3,\"params\":\"\",\"plan_s\":null,\"plan_steps\":null,"
        "\"supersteps\":null,\"bsp_w\":null,\"bsp_h\":null}\n",
        json_declared);
    ck_assert_str_eq(out, want);
    free(out);
    /* Under a discipline without a receive buffer (sync), no buffer: null, not "unlimited". */
    r.discipline = "sync";
    r.buffered = 0;
    out = render(HR_FORMAT_JSON, &r, 1);
    ck_assert_msg(strstr(out, "\"discipline\":\"sync\"") != NULL &&
                  strstr(out, "\"buffer\":null,") != NULL, "%s", out);
    free(out);
}
END_TEST

START_TEST(test_report_json_escapes)
{
    hr_row r = sample();
    r.algorithm = "a\"b\\c\nd\te\x01";
    r.verified = 0;
    r.wall_s = 1.0 / 0.0;   /* JSON has no infinity */
    char *out = render(HR_FORMAT_JSON, &r, 1);
    ck_assert_ptr_nonnull(strstr(out, "{\"algorithm\":\"a\\\"b\\\\c\\nd\\te\\u0001\","));
    ck_assert_ptr_nonnull(strstr(out, "\"wall_s\":null,\"verified\":false,"));
    free(out);
}
END_TEST

/* Equal doubles print equal text and the text reads back to the same double. */
START_TEST(test_report_round_trip)
{
    static const double values[] = { 0.0986171, 0.098617072, 1.0 / 3.0, 2.0 / 3.0, 1e-9,
                                      123456.789, 5e-324, 1.7976931348623157e308 };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        hr_row r = sample();
        r.model_time_s = values[i];
        char *out = render(HR_FORMAT_JSON, &r, 1);
        const char *at = strstr(out, "\"model_time_s\":");
        ck_assert_ptr_nonnull(at);
        double back = strtod(at + strlen("\"model_time_s\":"), NULL);
        ck_assert_msg(back == values[i], "%.17g printed as %.40s", values[i], at);
        free(out);
    }
}
END_TEST

/* The default table: aligned columns as wide as their widest text, the settings only where the
 * rows differ in them (cost here; tau and sigma follow the cost, so they stay out), status only
 * where some row is not ok, nothing empty, no trailing blanks. Hand-written. */
START_TEST(test_report_table)
{
    hr_row rows[2] = { sample(), sample() };
    rows[1].cost = "sp2";
    rows[1].tau = 40e-6;
    rows[1].sigma = 1.0 / 35e6;
    rows[1].params = "";
    rows[1].model_time_s = 0.05;
    char *out = render_hide(HR_FORMAT_TABLE, rows, 2, &async_rows, NULL, 0);
    ck_assert_str_eq(out,
        "algorithm    procs        n       h  cost  model_time_s  rounds  messages    bytes  "
        "max_out_bytes  max_in_bytes  wall_s  verified  steps\n"
        "hrel.direct     16  1048576  262144  cm5            0.1       2       347  7866224  "
        "       524408       1966200    0.25  true         30\n"
        "hrel.direct     16  1048576  262144  sp2           0.05       2       347  7866224  "
        "       524408       1966200    0.25  true         30\n");
    free(out);
    /* A row that failed brings status; a sigma that differs within one cost, sigma. */
    rows[1].cost = "cm5";
    rows[1].tau = 88e-6;
    rows[1].status = "wrong";
    rows[1].verified = 0;
    out = render_hide(HR_FORMAT_TABLE, rows, 2, &async_rows, NULL, 0);
    ck_assert_msg(strstr(out, "  steps  status                   sigma\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "  30  ok                       5e-08\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "  30  wrong   2.8571428571428572e-08\n") != NULL, "%s", out);
    ck_assert_msg(strstr(out, " tau") == NULL && strstr(out, " cost") == NULL, "%s", out);
    free(out);
}
END_TEST

/* Too wide for 160 characters: the table leaves out max_out_bytes, then wall_s, ..., and says
 * which; the settings that vary stay. */
START_TEST(test_report_table_fits)
{
    hr_row rows[2] = { sample(), sample() };
    rows[0].params = "a_long_parameter_name=1 another_long_one=2";
    rows[1].params = "a_long_parameter_name=3 another_long_one=4";
    rows[1].distribution = "transpose";
    rows[1].discipline = "sync";
    char dropped[256];
    char *buf = render_hide(HR_FORMAT_TABLE, rows, 2, &async_rows, dropped, sizeof dropped);
    for (char *line = buf; *line; line = strchr(line, '\n') + 1)
        ck_assert_msg(strcspn(line, "\n") <= HR_REPORT_TABLE_WIDTH, "%s", buf);
    /* 200 characters: less max_out_bytes (15 with its gap) 185, wall_s (8) 177, max_in_bytes
     * (14) 163, bytes (9) 154. */
    ck_assert_str_eq(dropped, "max_out_bytes, wall_s, max_in_bytes, bytes");
    ck_assert_msg(strstr(buf, "discipline") && strstr(buf, "distribution") &&
                  strstr(buf, "another_long_one=4") && strstr(buf, "messages"), "%s", buf);
    free(buf);
}
END_TEST

/* --aggregate seed: rows that differ in a setting h (h_set) are apart, each h its own row with
 * no h statistics; rows whose workload drew h are together, h_mean their mean. */
START_TEST(test_report_aggregate_h)
{
    hr_row rows[4] = { sample(), sample(), sample(), sample() };
    rows[0].h_set = rows[1].h_set = 1;
    rows[1].h = 131072;
    rows[1].seed = 2;
    rows[2].h = 100;
    rows[3].h = 102;
    rows[3].seed = 2;
    rows[2].distribution = rows[3].distribution = "uniform";
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    hr_report r;
    char why[256];
    ck_assert_int_eq(hr__report_pick(&r, "h,seed,count,h_mean,h_sd,distribution", 1, NULL, why,
                                     sizeof why), HR_OK);
    hr__report_start(&r, f, HR_FORMAT_CSV);
    for (int i = 0; i < 4; i++)
        hr__report_row(&r, &rows[i]);
    ck_assert_int_eq(hr__report_end(&r), HR_OK);
    fclose(f);
    ck_assert_str_eq(buf, "h,seed,count,h_mean,h_sd,distribution\n"
                          "262144,1,1,,,skewed\n"
                          "131072,2,1,,,skewed\n"
                          ",1 2,2,101,1.4142135623730951,uniform\n");
    free(buf);
}
END_TEST

/* An empty report still has the CSV header; JSON lines has none. */
START_TEST(test_report_empty)
{
    char *out = render(HR_FORMAT_CSV, NULL, 0);
    expectations();
    ck_assert_str_eq(out, csv_header);
    free(out);
    out = render(HR_FORMAT_JSON, NULL, 0);
    ck_assert_str_eq(out, "");
    free(out);
}
END_TEST

/* Declared keys by hand: the built-in kinds' columns in registry order (exchange's bytes as
 * block_bytes, fft2d's size, pattern's six, values' two), each row filling its kind's, and of
 * those only the ones that apply (pattern = density: density and msg_bytes, not d, msg_unit or
 * range). */
START_TEST(test_report_declared)
{
    static const char *const want[] = { "block_bytes", "size", "pattern", "density", "msg_bytes",
                                        "d", "msg_unit", "range", "op", "root" };
    for (int i = 0; i < 10; i++)
        ck_assert_str_eq(hr_wkey_column(hr_workload_column_at(i)), want[i]);
    hr_row r = sample();
    r.workload = hr_workload_find("pattern");
    hr_wkey_value keys[6] = { { .word = "density" }, { .num = 12.5 }, { .num = 4096 },
                              { .num = 8 }, { .num = 16 }, { .num = 32 } };
    r.wkeys = keys;
    char *out = render(HR_FORMAT_CSV, &r, 1);
    ck_assert_msg(strstr(out, ",ok,threads,1,,,skewed,,,,density,12.5,4096,,,,,,unlimited,") != NULL, "%s",
                  out);
    free(out);
    out = render(HR_FORMAT_JSON, &r, 1);
    ck_assert_msg(strstr(out, "\"block_bytes\":null,\"size\":null,\"pattern\":\"density\","
                              "\"density\":12.5,\"msg_bytes\":4096,\"d\":null,\"msg_unit\":null,"
                              "\"range\":null,\"op\":null,") != NULL, "%s", out);
    free(out);
}
END_TEST

/* The column table: names unique, each row with its doc line; the statistics --aggregate seed
 * takes numbered 1, 2, ... without a gap, each a number; an aggregated row fits. */
START_TEST(test_report_columns_table)
{
    int stats[HR_REPORT_MAX_COLS] = { 0 }, nstat = 0, n = 0;
    for (const hr_column *c; (c = hr__column_at(n)) != NULL; n++) {
        ck_assert_msg(c->doc != NULL && c->doc[0] != '\0', "%s has no doc line", c->name);
        for (int j = 0; j < n; j++)
            ck_assert_msg(strcmp(hr__column_at(j)->name, c->name) != 0, "%s twice", c->name);
        if (c->agg == HR_AGG_STATS) {
            ck_assert_msg(c->type == HR_COL_COUNT || c->type == HR_COL_FIGURE, "%s", c->name);
            ck_assert_int_gt(c->stat, 0);
            ck_assert_int_lt(c->stat, HR_REPORT_MAX_COLS);
            stats[c->stat]++;
            nstat++;
        }
    }
    ck_assert_int_eq(nstat, 16);
    for (int s = 1; s <= nstat; s++)
        ck_assert_msg(stats[s] == 1, "statistic %d is %d columns", s, stats[s]);
    hr_report r;
    ck_assert_int_eq(hr__report_pick(&r, NULL, 1, NULL, NULL, 0), HR_OK);
    /* 8 columns up to seed, count, 16 figures' 4 statistics, 3 of the outcome, the other
     * settings (all but the 8, the 15 other figures, the 3 and the row of keys), the keys. */
    ck_assert_int_eq(r.nsel, 8 + 1 + 64 + 3 + (n - 8 - 15 - 3 - 1) + declared_columns());
    ck_assert_int_lt(r.nsel, HR_REPORT_MAX_COLS);
}
END_TEST

/* The default table leaves out what no row of the sweep can fill (hr_column.needs): lost and
 * stalls, though filled, without the traits that make them; with them, they show. */
START_TEST(test_report_table_needs)
{
    hr_row rows[1] = { sample() };
    rows[0].lost = 3;
    rows[0].stalls = 2;
    char *out = render_hide(HR_FORMAT_TABLE, rows, 1, &async_rows, NULL, 0);
    ck_assert_msg(strstr(out, "lost") == NULL && strstr(out, "stalls") == NULL, "%s", out);
    free(out);
    hr_report_rows lossy = { .traits = HR_ROWS_LOSSY };
    out = render_hide(HR_FORMAT_TABLE, rows, 1, &lossy, NULL, 0);
    ck_assert_msg(strstr(out, "  lost\n") != NULL && strstr(out, "stalls") == NULL, "%s", out);
    free(out);
    /* Without what the rows can have (NULL), every filled column shows. */
    out = render_hide(HR_FORMAT_TABLE, rows, 1, NULL, NULL, 0);
    ck_assert_msg(strstr(out, "  lost  stalls  engine   hosts\n") != NULL, "%s", out);
    free(out);
    /* engine and hosts: in the table only when an engine of processes ran the rows. */
    ck_assert_msg(strstr(out = render_hide(HR_FORMAT_TABLE, rows, 1, &async_rows, NULL, 0),
                         "engine") == NULL, "%s", out);
    free(out);
    hr_report_rows ranks = { .traits = HR_ROWS_ENGINE };
    rows[0].engine = "mpi";
    rows[0].hosts = 3;
    out = render_hide(HR_FORMAT_TABLE, rows, 1, &ranks, NULL, 0);
    ck_assert_msg(strstr(out, "  engine  hosts\n") != NULL && strstr(out, "  mpi  ") != NULL &&
                  strstr(out, "      3\n") != NULL, "%s", out);
    free(out);
}
END_TEST

Suite *hr_report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_report_format_names);
    tcase_add_test(tc, test_report_declared);
    tcase_add_test(tc, test_report_model_off);
    tcase_add_test(tc, test_report_columns_table);
    tcase_add_test(tc, test_report_table_needs);
    tcase_add_test(tc, test_report_csv);
    tcase_add_test(tc, test_report_csv_quoting);
    tcase_add_test(tc, test_report_json);
    tcase_add_test(tc, test_report_json_escapes);
    tcase_add_test(tc, test_report_round_trip);
    tcase_add_test(tc, test_report_table);
    tcase_add_test(tc, test_report_table_fits);
    tcase_add_test(tc, test_report_aggregate_h);
    tcase_add_test(tc, test_report_empty);
    suite_add_tcase(s, tc);
    return s;
}
