// `mpirun -np K granular run CASE --out DIR`: a packing ensemble split over the ranks of an MPI
// job (docs/mpi.md). Only builds with MPI compile mpi_run.cpp (GRANULAR_MPI); the physics never
// sees MPI.
#pragma once

#include <string>
#include <vector>

#include "cli.hpp"

namespace granular::cli {

// Runs o (a `granular run`) as one rank of the MPI job that started this process: every rank
// runs its shard of the packings, rank 0 receives the others' outputs by MPI messages and
// merges them into o's output folder. Initializes and finalizes MPI; returns the exit code.
int run_over_mpi(const Options& o);

// `mpirun -np K granular reproduce ...`: the runs of the report split over the ranks (each runs
// every K-th, into the same DIR/runs/, so DIR must be on a file system every rank sees); rank 0
// measures and writes the report once all have finished. Initializes and finalizes MPI.
int reproduce_over_mpi(const std::vector<std::string>& args);

}  // namespace granular::cli
