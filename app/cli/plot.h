// `sweep ... --plot FILE.svg|png`: the sweep JSON is drawn by scripts/plot.py (matplotlib) run with
// /usr/bin/python3 (or $CZ_PYTHON). The script is found at $CZ_PLOT_SCRIPT, else next to the
// installed tool (<prefix>/share/circuitzoo/plot.py), else in the source tree the tool was built
// from (<source>/scripts/plot.py). A missing python, script or matplotlib is an InputError (exit 2).
#pragma once
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace cz::cli {

// Refuses (InputError) a plot path that does not end in .svg or .png.
void check_plot_path(const std::string& path);
// Checks that the script runs and matplotlib imports (InputError with the script's message if not).
void check_plotting_available();
// The bytes of the picture of `sweep` (the JSON `sweep --json` writes) in the format of `path`'s suffix.
std::string render_sweep_plot(const nlohmann::json& sweep, const std::string& path);
// The same for the claims ledger (`claims --json`): its asymptotic rows against their claimed shapes.
std::string render_claims_plot(const nlohmann::json& ledger, const std::string& path);

}  // namespace cz::cli
