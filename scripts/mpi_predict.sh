#!/bin/sh
# scripts/mpi_predict.sh BUILD_DIR [P...]: how well the model predicts this machine
# (docs/mpi.md, "Calibration"). At each P: measures the machine with `hremu-mpi --calibrate` on
# P ranks, runs configs/mpi/predict_*.ini (hrel.direct, hrel.two_phase, xchg.pex,
# bcast.binomial) on the thread engine with that cost (model_time_s, the prediction) and on
# hremu-mpi with `model = off` (wall_s, the real time, a median over the config's repeats).
# Prints the figures measured, then a markdown table: wall_s over model_time_s, 1.00 a perfect
# prediction. P defaults to 2 4 8 16. Reads every CSV column by name.
set -u
build=${1:?usage: scripts/mpi_predict.sh BUILD_DIR [P...]}
shift
[ $# -gt 0 ] || set -- 2 4 8 16
cd "$(dirname "$0")/.." || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
mpirun="mpirun --oversubscribe --mca mpi_yield_when_idle 1"
cols=algorithm,procs,model_time_s,wall_s,status
for p in "$@"; do
    # This box at p ranks is a machine of its own (p ranks share its cores): measured at p.
    $mpirun -np "$p" "$build/hremu-mpi" --calibrate --out "$tmp/cost$p.ini" || exit 1
    for cfg in configs/mpi/predict_*.ini; do
        "$build/hremu" "$cfg" --set machine.procs="$p" --set machine.cost="file:$tmp/cost$p.ini" \
            --format csv --columns "$cols" --quiet | sed 1d >>"$tmp/model" || exit 1
        $mpirun -np "$p" "$build/hremu-mpi" "$cfg" --set machine.procs="$p" --set run.model=off \
            --format csv --columns "$cols" --quiet | sed 1d >>"$tmp/wall" || exit 1
    done
    echo "p = $p: $(sed -n 's/^\(tau\|sigma\|overhead\) *= *\([^ ]*\).*/\1 \2/p' "$tmp/cost$p.ini" |
        paste -sd ' ' -)"
done
echo "$cols" >"$tmp/head"
echo
echo "| algorithm | p | model_time_s (thread engine, calibrated) | wall_s (hremu-mpi, model off) | wall / model |"
echo "|---|---|---|---|---|"
cat "$tmp/head" "$tmp/model" "$tmp/head" "$tmp/wall" | awk -F, '
    $1 == "algorithm" { part++; for (i = 1; i <= NF; i++) col[i] = $i; next }
    { for (i = 1; i <= NF; i++) v[col[i]] = $i; key = v["algorithm"] " " v["procs"]
      if (v["status"] != "ok") bad = 1
      if (part == 1) { model[key] = v["model_time_s"]; order[++n] = key }
      else wall[key] = v["wall_s"] }
    END { for (k = 1; k <= n; k++) { split(order[k], a, " ")
              printf "| %s | %s | %.3g | %.3g | %.2f |\n", a[1], a[2], model[order[k]],
                     wall[order[k]], (model[order[k]] > 0 ? wall[order[k]] / model[order[k]] : 0) }
          exit bad }'
