/* model.h: the model rank's side of the MPI engine (model.c), as engine.c calls it on rank 0.
 * The model is the thread engine, linked in under other names (Makefile: `make mpi`). */
#ifndef HREMU_MPI_MODEL_H
#define HREMU_MPI_MODEL_H

#include <stdint.h>
#include <mpi.h>
#include <hremu/machine.h>

typedef struct hr_model hr_model;

/* Check cfg as the model's hr_machine_create would (any rank, no thread). */
int  hr__model_check(const hr_machine_config *cfg, const char **why);
/* A model machine of cfg's processors, answering ranks on comm. HR_OK, or an hr_machine_create
 * error with its reason in why. */
int  hr__model_create(const hr_machine_config *cfg, MPI_Comm comm, hr_model **out,
                      const char **why);
/* Start run number `run`: the model's processors wait for their ranks' calls. */
void hr__model_begin(hr_model *md, uint64_t run);
/* After this rank saw the run's end: the model's result. */
void hr__model_end(hr_model *md, hr_run_result *res);
void hr__model_destroy(hr_model *md);
/* The last run's figures per timed region and per processor, as hr_machine_regions ... give
 * them on threads. */
size_t hr__model_regions(const hr_model *md);
int    hr__model_region_result(const hr_model *md, size_t i, hr_region_result *out);
int    hr__model_proc_result(const hr_model *md, int pid, hr_proc_result *out);
size_t hr__model_supersteps(const hr_model *md);
int    hr__model_superstep_result(const hr_model *md, size_t i, hr_superstep_result *out);
/* The model machine's events (hr_machine_events ...) and neighbour rule, for rank 0's
 * hr_machine_* calls: set before a run, read after it. */
void   hr__model_events(hr_model *md, size_t limit);
void   hr__model_neighbour_only(hr_model *md, int on);
size_t hr__model_event_count(const hr_model *md, size_t *dropped);
int    hr__model_event_each(const hr_model *md, void (*sink)(void *arg, const hr_event *e),
                            void *arg);

#endif
