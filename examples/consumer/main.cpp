// Verifies one registered construction through the installed library and prints the verdict.
#include <iostream>

#include <circuitzoo/app/engine/engine.h>
#include <circuitzoo/app/report/report_json.h>

int main(int argc, char** argv) {
  const std::string name = argc > 1 ? argv[1] : "primitive/shift_down";
  cz::Report r = cz::run_verify(cz::find_construction(name), {}, cz::DomainOptions{});
  std::cout << name << ": " << r.passed << "/" << r.instances << " passed (circuitzoo " << cz::kVersion << ", "
            << cz::registry().size() << " constructions)\n";
  return r.exit_code();
}
