/* options.c: the hremu command's options, one row each (options.h says what a row holds), and
 * what is made of them: parsing, the usage line, --help, the man page's OPTIONS section. An
 * option is one row here and the hr_options field that carries its value (used in cli/cli.c). */
#include "cli/options.h"

#include <string.h>

int hr__usage_error(const char *fmt, const char *arg)
{
    fputs("hremu: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs(" (hremu --help shows the usage)\n", stderr);
    return HR_EXIT_USAGE;
}

/* "--set machine.procs 8": the value went into the next word, which would otherwise read as a
 * second config file. Say what to write instead. */
static int check_set(const char *lhs, const char *next)
{
    if (strchr(lhs, '=') != NULL)
        return HR_EXIT_OK;
    if (next != NULL && next[0] != '-')
        fprintf(stderr, "hremu: --set %s: no '=' in it: write --set %s=%s (--set "
                "SECTION.KEY=VALUE, one word)\n", lhs, lhs, next);
    else
        fprintf(stderr, "hremu: --set %s: no '=' in it: write --set SECTION.KEY=VALUE\n", lhs);
    return HR_EXIT_USAGE;
}

static int check_aggregate(const char *value, const char *next)
{
    (void)next;
    if (strcmp(value, "seed") != 0)
        return hr__usage_error("--aggregate takes seed (it is '%s')", value);
    return HR_EXIT_OK;
}

static const hr_option options[] = {
    { .name = "--set", .kind = HR_OPT_LIST, .at = offsetof(hr_options, sets),
      .arg = "SECTION.KEY=VALUE", .forms = HR_FORM_RUN, .check = check_set,
      .help = "override a config value, e.g. --set machine.procs=64 or\n"
              "--set hrel.fifo_staged.K=1.5; a comma list is a sweep",
      .man = "Override a config value, e.g.\n"
             ".B \\-\\-set machine.procs=64\n"
             "or\n"
             ".BR \"\\-\\-set hrel.fifo_staged.K=1.5\" ;\n"
             "a comma list is a sweep.\n" },
    { .name = "--format", .kind = HR_OPT_VALUE, .at = offsetof(hr_options, format),
      .arg = "FORMAT", .usage = "table|csv|json", .forms = HR_FORM_RUN | HR_FORM_TOPOLOGY,
      .help = "table (default), csv, or json (one object per line)",
      .man = ".B table\n"
             "(default),\n"
             ".BR csv ,\n"
             "or\n"
             ".B json\n"
             "(one object per line).\n" },
    { .name = "--out", .kind = HR_OPT_VALUE, .at = offsetof(hr_options, out),
      .arg = "FILE", .forms = HR_FORM_RUN | HR_FORM_CALIBRATE,
      .help = "write the rows to FILE instead of standard output",
      .man = "Write the rows to FILE instead of standard output. Every output file (\\-\\-out,\n"
             "\\-\\-trace, \\-\\-schedule, \\-\\-rounds, \\-\\-html, \\-\\-regions) is written\n"
             "to a temporary file beside it and renamed onto its name when the run ends with\n"
             "status 0 or 1; a usage or write error leaves the old files as they were. Two\n"
             "outputs on one file are refused, and so is an output onto a file the run reads\n"
             "(its config, a relation, a matrix or a cost file).\n" },
    { .name = "--trace", .kind = HR_OPT_VALUE, .at = offsetof(hr_options, trace),
      .arg = "FILE", .usage = "FILE|-", .forms = HR_FORM_RUN,
      .help = "write what each row's first run did, every send, receive,\n"
              "computation and round message with its model times, to FILE:\n"
              "Chrome trace JSON for Perfetto if FILE ends in .json, else CSV;\n"
              "- is standard output (CSV; the rows then need --out)",
      .man = "Write what each row's first run did, every send, receive, computation and round\n"
             "message with its model times, to FILE: Chrome trace JSON (for Perfetto) if FILE\n"
             "ends in .json, else CSV\n"
             "(row,algorithm,event,proc,peer,msg,t0_s,t1_s,bytes,tag,priority,queue,round,fate,name,link);\n"
             ".B \\-\n"
             "is standard output, and the rows then need\n"
             ".BR \\-\\-out .\n" },
    { .name = "--trace-limit", .kind = HR_OPT_VALUE, .at = offsetof(hr_options, trace_limit),
      .arg = "N", .forms = HR_FORM_RUN,
      .help = "record at most N events a run (default 1000000; more are left\n"
              "out, and stderr says how many)",
      .man = "Record at most N events a run (default 1000000); what is past it is left out,\n"
             "and standard error says how many.\n" },
    { .name = "--trace-sample", .kind = HR_OPT_VALUE, .at = offsetof(hr_options, trace_sample),
      .arg = "K", .forms = HR_FORM_RUN,
      .help = "trace processors 0, K, 2K, ... only (a big run's sample; its\n"
              "arrows join kept processors only)",
      .man = "Write the events of processors 0, K, 2K, ... only, for a run too big to view\n"
             "whole; arrows join kept processors only.\n" },
    { .name = "--trace-wall", .kind = HR_OPT_FLAG, .at = offsetof(hr_options, trace_wall),
      .forms = HR_FORM_RUN,
      .help = "add when each event was recorded on this computer (wall_s;\n"
              "in JSON a second process a row): differs from run to run",
      .man = "Add when each event was recorded on this computer: a wall_s column in CSV, a\n"
             "second process a row in JSON. Not a model figure: it differs from run to run.\n" },
    { .name = "--rounds", .kind = HR_OPT_VALUE, .at = offsetof(hr_options, rounds),
      .arg = "FILE", .usage = "FILE|-", .forms = HR_FORM_RUN,
      .help = "round disciplines: draw each round of each row's first run as\n"
              "a board (senders down, receivers across, each message's fate,\n"
              "the stalled senders) to FILE; - is standard output",
      .man = "Round disciplines: draw each round of each row's first run as a board, senders\n"
             "down and receivers across, each message's fate in its cell (D delivered, d\n"
             "delivered from the queue, Q queued, q still queued, L lost, X destroyed), the\n"
             "round's counts and the stalled senders;\n"
             ".B \\-\n"
             "is standard output, and the rows then need\n"
             ".BR \\-\\-out .\n" },
    { .name = "--html", .kind = HR_OPT_VALUE, .at = offsetof(hr_options, html),
      .arg = "FILE", .forms = HR_FORM_RUN,
      .help = "write one self-contained web page that plays each row's first\n"
              "run, round by round or along model time (open it in a browser)",
      .man = "Write one self-contained web page (no network, its script inline) that plays\n"
             "each row's first run, round by round under the round disciplines and along model\n"
             "time under the others: processors as nodes laid out by topology, messages as\n"
             "arrows coloured by fate along their routes (a message delivered from a queue\n"
             "dotted), a slider, a play button and the counts; above 64 processors a sample of\n"
             "the senders' arrows, which the page names. The page's address takes\n"
             ".B ?row=R&step=K\n"
             "to open row R at step K (both from 0).\n" },
    { .name = "--schedule", .kind = HR_OPT_VALUE, .at = offsetof(hr_options, schedule),
      .arg = "FILE", .usage = "FILE|-", .forms = HR_FORM_RUN,
      .help = "schedulers (irreg.*): write each row's schedule to FILE, a\n"
              "line a step in seed 001's notation (0 <-> 1 an exchange,\n"
              "0 -> 5 one way); - is standard output (the rows need --out)",
      .man = "Schedulers (irreg.*): write each row's schedule to FILE after a line naming the\n"
             "row, one line a step in seed 001's notation (0 <-> 1 an exchange, 0 -> 5 one\n"
             "way, 3 <- 0, 1 one receiver of several senders);\n"
             ".B \\-\n"
             "is standard output, and the rows then need\n"
             ".BR \\-\\-out .\n" },
    { .name = "--regions", .kind = HR_OPT_VALUE, .at = offsetof(hr_options, regions),
      .arg = "FILE", .forms = HR_FORM_RUN,
      .help = "write the timed regions and supersteps of each row's first\n"
              "run to FILE, in the rows' format (docs/config.md)",
      .man = "Write the timed regions and supersteps of each row's first run to FILE, in the\n"
             "rows' format.\n" },
    { .name = "--columns", .kind = HR_OPT_VALUE, .at = offsetof(hr_options, columns),
      .arg = "LIST", .forms = HR_FORM_RUN,
      .help = "the columns to write, in this order, e.g.\n"
              "--columns algorithm,procs,model_time_s (every format); CSV\n"
              "and JSON write every column by default, the table (aligned,\n"
              "at most 160 wide) algorithm, procs, n, h, the settings that\n"
              "vary between its rows, the model figures and steps; it leaves\n"
              "out columns empty for every row (docs/config.md)",
      .man = "The columns to write, in this order, in every format. CSV and JSON write every\n"
             "column by default. The table, written when the sweep ends and aligned, shows by\n"
             "default algorithm, procs, n and h, the other settings only where the rows differ\n"
             "in them (tau, sigma and the other cost figures only where rows of one cost\n"
             "differ), the model figures and steps, rounds_per_h, lost and stalls where the\n"
             "discipline makes them, status where a row is not ok, and nothing that is empty\n"
             "for every row; if that is wider than 160 characters it leaves out max_out_bytes,\n"
             "wall_s, rounds_per_h, max_in_bytes, bytes, messages in turn until it fits, and\n"
             "says so on stderr.\n" },
    { .name = "--aggregate", .kind = HR_OPT_VALUE, .at = offsetof(hr_options, aggregate),
      .arg = "seed", .forms = HR_FORM_RUN, .check = check_aggregate,
      .help = "one row per group of rows that differ only in seed (a swept\n"
              "h keeps rows apart): mean, sd, min and max of each model\n"
              "column, and count",
      .man = "One row per group of rows that differ only in seed (every setting the config\n"
             "sets or sweeps, h among them, keeps rows apart; only an h the workload draws is\n"
             "averaged): mean, sample standard deviation, minimum and maximum of each model\n"
             "column (X_mean, X_sd, X_min, X_max), and count. The table shows the means and\n"
             "model_time_s_sd.\n" },
    { .name = "--quiet", .kind = HR_OPT_FLAG, .at = offsetof(hr_options, quiet),
      .forms = HR_FORM_RUN,
      .help = "no progress line (shown on standard error when it is a terminal)",
      .man = "No progress line (shown on standard error when it is a terminal and the rows do\n"
             "not stream to it).\n" },
    { .name = "--topology", .kind = HR_OPT_VALUE, .at = offsetof(hr_options, topology),
      .arg = "SPEC", .forms = HR_FORM_TOPOLOGY_MODE,
      .help = "print a topology's figures instead of running: nodes, directed\n"
              "links (a cable is two), degrees, diameter, average distance,\n"
              "bisection width in undirected edges (a cable is one)\n"
              "(e.g. --topology \"torus 8x8\", or --topology hypercube --procs 64)",
      .man = "Print a topology's figures instead of running: nodes, directed links (column\n"
             ".BR directed_links ,\n"
             "a cable counted once each way), degrees, diameter, average distance, and the\n"
             "bisection width in undirected edges (column\n"
             ".BR bisection_edges ,\n"
             "a cable counted once; \\- where it is not known: a torus whose longest side is\n"
             "odd, a fat tree, a reduced hypercube) (e.g.\n"
             ".B \\-\\-topology \"\"\"torus 8x8\"\"\"\n"
             "or\n"
             ".BR \"\\-\\-topology hypercube \\-\\-procs 64\" ).\n" },
    { .name = "--procs", .kind = HR_OPT_VALUE, .at = offsetof(hr_options, procs),
      .arg = "P", .forms = HR_FORM_TOPOLOGY,
      .help = "the processors for --topology, where the shape does not fix them",
      .man = "The processors for \\-\\-topology, where the shape does not fix them.\n" },
    { .name = "--calibrate", .kind = HR_OPT_FLAG, .at = offsetof(hr_options, calibrate),
      .forms = HR_FORM_CALIBRATE,
      .help = "hremu-mpi under mpirun: measure the ranks' machine (latency,\n"
              "seconds a byte, overhead, all pairs at once) and write it as a\n"
              "[cost] section a config names (cost = file:FILE; docs/mpi.md)",
      .man = "Under mpirun, hremu-mpi only: measure the machine the ranks run on (an empty\n"
             "message's round trip, a stream's seconds a byte, a send's overhead, every pair\n"
             "exchanging at once; each repeated, medians) and write the model's cost figures\n"
             "as a [cost] section to standard output or\n"
             ".BR \\-\\-out ,\n"
             "which a config names with\n"
             ".BR \"cost = file:FILE\" .\n" },
    { .name = "--list", .kind = HR_OPT_FLAG, .at = offsetof(hr_options, list),
      .forms = HR_FORM_ALONE,
      .help = "algorithms, workloads, disciplines, topologies, cost models, link models",
      .man = "Algorithms (each with what it needs of the discipline and the disciplines that "
             "offer it, its\nparameters with their ranges or words), workloads, disciplines, "
             "topologies, cost models\n(each with its parameters and its presets), link models.\n" },
    { .name = "--help", .alias = "-h", .kind = HR_OPT_FLAG, .at = offsetof(hr_options, help),
      .forms = HR_FORM_ALONE,
      .help = "this text",
      .man = "The usage.\n" },
    { .name = "--version", .kind = HR_OPT_FLAG, .at = offsetof(hr_options, version),
      .forms = HR_FORM_ALONE,
      .help = "the version",
      .man = "The version.\n" },
    { .name = "--man-options", .kind = HR_OPT_FLAG, .at = offsetof(hr_options, man_options),
      .help = "docs/hremu.1's OPTIONS section (tests/cli/run.sh compares)" },
    { .name = "--doc-columns", .kind = HR_OPT_FLAG, .at = offsetof(hr_options, doc_columns),
      .help = "docs/config.md's list of columns (tests/cli/run.sh compares)" },
    { .name = NULL },
};

const hr_option *hr__option_at(int i)
{
    return i >= 0 && i < (int)(sizeof options / sizeof options[0]) - 1 ? &options[i] : NULL;
}

/* The option argv[*i] names, its value in *value (read from the next word if need be). NULL:
 * none; *value NULL for a value option: it was the last word. */
static const hr_option *match(int argc, char **argv, int *i, const char **value)
{
    const char *a = argv[*i];
    *value = NULL;
    for (const hr_option *o = options; o->name != NULL; o++) {
        size_t n = strlen(o->name);
        if (o->kind == HR_OPT_FLAG) {
            if (strcmp(a, o->name) == 0 || (o->alias != NULL && strcmp(a, o->alias) == 0))
                return o;
            continue;
        }
        if (strncmp(a, o->name, n) != 0 || (a[n] != '=' && a[n] != '\0'))
            continue;
        if (a[n] == '=')
            *value = a + n + 1;
        else if (*i + 1 < argc)
            *value = argv[++*i];
        return o;
    }
    return NULL;
}

/* Was opt given? */
static int given(const hr_options *o, const hr_option *opt)
{
    const char *field = (const char *)o + opt->at;
    switch (opt->kind) {
    case HR_OPT_FLAG: return *(const int *)(const void *)field != 0;
    case HR_OPT_LIST: return ((const hr_option_list *)(const void *)field)->n > 0;
    default:          return *(const char *const *)(const void *)field != NULL;
    }
}

/* Every option given, and the config, belong to the one form of the command that the first
 * option of a form of its own (--list, --calibrate, --topology) chose, else to a run; --help
 * takes anything. --procs without --topology is cli.c's to say. */
static int one_form(const hr_options *o)
{
    if (o->help)
        return HR_EXIT_OK;
    unsigned form = HR_FORM_RUN;
    const hr_option *lead = NULL;
    for (const hr_option *opt = options; opt->name != NULL && lead == NULL; opt++)
        if (given(o, opt) && (opt->forms == 0 || opt->forms == HR_FORM_ALONE)) {
            form = HR_FORM_ALONE;
            lead = opt;
        }
    for (const hr_option *opt = options; opt->name != NULL && lead == NULL; opt++)
        if (given(o, opt) && (opt->forms & (HR_FORM_CALIBRATE | HR_FORM_TOPOLOGY_MODE)) &&
            !(opt->forms & HR_FORM_RUN)) {
            form = opt->forms & HR_FORM_CALIBRATE ? HR_FORM_CALIBRATE
                                                  : HR_FORM_TOPOLOGY | HR_FORM_TOPOLOGY_MODE;
            lead = opt;
        }
    char msg[160];
    if (lead != NULL && o->config != NULL) {
        snprintf(msg, sizeof msg, "%s takes no config file ('%.80s')", lead->name, o->config);
        return hr__usage_error("%s", msg);
    }
    for (const hr_option *opt = options; opt->name != NULL; opt++) {
        if (opt == lead || !given(o, opt) || (form != HR_FORM_ALONE && (opt->forms & form)))
            continue;
        if (form == HR_FORM_RUN && (opt->forms & HR_FORM_TOPOLOGY))
            continue;
        snprintf(msg, sizeof msg, "%s does not go with %s", opt->name,
                 lead != NULL ? lead->name : "a run (give it a config, or none)");
        return hr__usage_error("%s", msg);
    }
    return HR_EXIT_OK;
}

int hr__options_parse(int argc, char **argv, hr_options *o)
{
    int only_files = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (only_files || a[0] != '-' || a[1] == '\0') {
            if (o->config != NULL)
                return hr__usage_error("more than one config file given ('%s')", a);
            o->config = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_files = 1;
            continue;
        }
        const hr_option *opt = match(argc, argv, &i, &v);
        if (opt == NULL)
            return hr__usage_error("unknown option '%s'", a);
        if (opt->kind != HR_OPT_FLAG && v == NULL)
            return hr__usage_error("option %s needs a value", opt->name);
        int err = opt->check != NULL ? opt->check(v, i + 1 < argc ? argv[i + 1] : NULL)
                                     : HR_EXIT_OK;
        if (err != HR_EXIT_OK)
            return err;
        char *field = (char *)o + opt->at;
        if (opt->kind == HR_OPT_FLAG) {
            *(int *)(void *)field = 1;
        } else if (opt->kind == HR_OPT_LIST) {
            hr_option_list *l = (hr_option_list *)(void *)field;
            l->v[l->n++] = v;
        } else {
            *(const char **)(void *)field = v;
        }
    }
    return one_form(o);
}

/* ---- the usage line and --help ------------------------------------------------------------- */

#define USAGE_WIDTH 80
#define USAGE_INDENT "             "   /* under "usage: hremu " */

/* Append word to the usage line at *col, wrapping it past USAGE_WIDTH. */
static void usage_word(FILE *out, int *col, const char *word)
{
    int n = (int)strlen(word);
    if (*col + 1 + n > USAGE_WIDTH) {
        fputs("\n" USAGE_INDENT, out);
        *col = (int)strlen(USAGE_INDENT);
    } else {
        fputc(' ', out);
        (*col)++;
    }
    fputs(word, out);
    *col += n;
}

/* "--name ARG" as the usage line writes it (bracketed), or --help's left column. */
static void spelled(char *buf, size_t len, const hr_option *o, int usage)
{
    const char *arg = usage && o->usage != NULL ? o->usage : o->arg;
    snprintf(buf, len, "%s%s%s%s%s%s", usage ? "[" : "", o->name, arg ? " " : "", arg ? arg : "",
             usage ? "]" : "", usage && o->kind == HR_OPT_LIST ? "..." : "");
}

static void usage(FILE *out)
{
    char word[128];
    int col = (int)strlen("usage: hremu [CONFIG.ini]");
    fputs("usage: hremu [CONFIG.ini]", out);
    for (const hr_option *o = options; o->name != NULL; o++)
        if (o->forms & HR_FORM_RUN) {
            spelled(word, sizeof word, o, 1);
            usage_word(out, &col, word);
        }
    /* The topology form: hremu --topology SPEC, then its other options. */
    fputs("\n       hremu", out);
    col = (int)strlen("       hremu");
    for (const hr_option *o = options; o->name != NULL; o++)
        if (o->forms & HR_FORM_TOPOLOGY_MODE) {
            spelled(word, sizeof word, o, 0);
            usage_word(out, &col, word);
        }
    for (const hr_option *o = options; o->name != NULL; o++)
        if (o->forms & HR_FORM_TOPOLOGY) {
            spelled(word, sizeof word, o, 1);
            usage_word(out, &col, word);
        }
    fputs("\n       hremu-mpi", out);
    col = (int)strlen("       hremu-mpi");
    for (int flags = 1; flags >= 0; flags--)      /* --calibrate, then its options */
        for (const hr_option *o = options; o->name != NULL; o++)
            if ((o->forms & HR_FORM_CALIBRATE) && (o->kind == HR_OPT_FLAG) == flags) {
                spelled(word, sizeof word, o, !flags);
                usage_word(out, &col, word);
            }
    fputs("\n       hremu", out);
    const char *sep = " ";
    for (const hr_option *o = options; o->name != NULL; o++)
        if (o->forms & HR_FORM_ALONE) {
            fprintf(out, "%s%s", sep, o->name);
            sep = " | ";
        }
    fputc('\n', out);
}

void hr__options_help(FILE *out)
{
    usage(out);
    fputs("\n"
          "Runs the algorithms of CONFIG.ini (default " HR_DEFAULT_CONFIG ", else the installed\n"
          "PREFIX/share/hremu/" HR_DEFAULT_CONFIG ") on an emulated distributed-memory machine "
          "and prints\n"
          "one row per run, timed in model seconds and in wall-clock seconds.\n"
          "\n", out);
    char left[128];
    for (const hr_option *o = options; o->name != NULL; o++) {
        if (o->forms == 0)
            continue;
        spelled(left, sizeof left, o, 0);
        fprintf(out, "  %-25s", left);
        for (const char *h = o->help; *h != '\0';) {
            size_t n = strcspn(h, "\n");
            fprintf(out, "%s%.*s\n", h == o->help ? "" : "                           ", (int)n,
                    h);
            h += n + (h[n] == '\n');
        }
    }
    fputs("\n"
          "Rows whose algorithm does not take the discipline, cost model, workload kind, "
          "topology or\n"
          "procs, and rows whose settings do not go together (a distribution's conditions on n, h\n"
          "and p), are skipped (stderr says how many). Environment: HREMU_MEMORY=BYTES (K, M, "
          "G, T)\n"
          "caps the memory a row may need (default: what the box has available); HREMU_JITTER=1\n"
          "perturbs the "
          "thread schedule (the model columns must not change).\n"
          "\n"
          "Exit status: 0 every run verified, 1 a run failed verification, failed, deadlocked or\n"
          "passed the model clock's range (status overflow), 2 a usage or configuration error,\n"
          "including a row that needs more memory than the box has. docs/config.md describes the\n"
          "config file.\n", out);
}

/* ---- the man page -------------------------------------------------------------------------- */

/* s with every '-' as roff's \-. */
static void roff_dashes(FILE *out, const char *s)
{
    for (; *s != '\0'; s++)
        fputs(*s == '-' ? "\\-" : (char[2]){ *s, '\0' }, out);
}

void hr__options_man(FILE *out)
{
    fputs(".SH OPTIONS\n", out);
    for (const hr_option *o = options; o->name != NULL; o++) {
        if (o->forms == 0)
            continue;
        /* The tag: a placeholder (capitals) in italics, a word to write as is in bold. */
        int word = o->arg != NULL && strpbrk(o->arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == NULL;
        fputs(o->arg != NULL && !word ? ".TP\n.BI " : ".TP\n.B ", out);
        roff_dashes(out, o->name);
        if (o->arg != NULL)
            fprintf(out, word ? " %s" : " \" %s\"", o->arg);
        fputc('\n', out);
        fputs(o->man, out);
    }
}
