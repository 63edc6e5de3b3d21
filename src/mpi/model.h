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

#endif
