/* config_int.h: what config.c (storage, parsing, overrides) and config_keys.c (the keys and
 * their values) share. Not for other modules: they use config.h. */
#ifndef HREMU_CLI_CONFIG_INT_H
#define HREMU_CLI_CONFIG_INT_H

#include "cli/config.h"

/* One key that was set, in the file or by --set. Its value is split at commas into items (each
 * trimmed, none empty); a single value is a list of one. */
typedef struct hr_config_entry {
    char   *section;
    char   *key;
    char   *where;      /* "FILE:LINE" or "--set SECTION.KEY", for error messages */
    int     line;       /* in the file; 0 for --set */
    char  **items;
    size_t  nitems;
} hr_config_entry;

/* A section header seen in the file; each name appears at most once. */
typedef struct hr_config_section {
    char *name;
    int   line;
} hr_config_section;

/* Invariants: at most one entry per (section, key); every entry's section is "machine",
 * "workload", "run" or the name of a registered algorithm, and its key is one that section has. */
struct hr_config {
    char              *name;        /* the file name, for messages */
    hr_config_entry   *entries;
    size_t             nentries, entries_cap;
    hr_config_section *sections;
    size_t             nsections, sections_cap;
};

/* Set the field of pt that a key names from one item; HR_OK, or an error code with why filled. */
typedef int (*hr_config_setter)(hr_point *pt, const char *item, char *why, size_t whylen);

/* A key of a fixed section. A [workload] key with a kind applies to workloads of that kind only:
 * for another kind, setting it is an error and its default is not applied. */
typedef struct hr_config_key {
    const char      *name;      /* NULL ends a table */
    const char      *def;       /* the default, as text; NULL: none (the preset decides) */
    hr_config_setter set;       /* NULL: not a sweep axis of its level ([run] algorithms) */
    hr_kind          kind;      /* 0: any workload kind; else a kind it applies to ... */
    hr_kind          kind2;     /* ... and another (0: none) */
    int              declared;  /* a key some workload kind declares (hr_workload.keys): it
                                 * applies to the kinds that declare it, with their default */
} hr_config_key;

/* The key table of a fixed section ("machine", "workload", "run"), or NULL. [workload]'s ends
 * with every key the registered kinds declare, each name once, in registry order. */
const hr_config_key   *hr__config_keys(const char *section);
/* The entry for section.key, or NULL if unset. */
const hr_config_entry *hr__config_find(const hr_config *c, const char *section, const char *key);

#endif /* HREMU_CLI_CONFIG_INT_H */
