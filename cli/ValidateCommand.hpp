#pragma once
// `gpusim validate`: the validation report against the papers (docs/validation.md) in one
// command. Runs every sweep the studies of validation/studies.json name (each an ordinary
// `gpusim sweep SPEC --resume`, so an interrupted validation continues and a finished one only
// re-renders), then writes the Markdown page and its SVG charts. Jobs that fail leave gaps that
// the page lists; the page is written anyway and the exit status is 1.
#include <string>
#include <vector>

namespace gpusim {

int cmdValidate(const std::vector<std::string>& args);

} // namespace gpusim
