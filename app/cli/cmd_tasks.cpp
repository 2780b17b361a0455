// `circuitzoo tasks [NAME] [--json [PATH|-]]`: the task registry (verify/task.h) as text or JSON.
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "verify/task.h"

namespace cz::cli {

int cmd_tasks(const Common& c) {
  check_outputs({{"--json", c.json_path}});
  std::vector<const Task*> ts;
  if (!c.name.empty()) ts.push_back(&find_task(c.name, "tasks " + c.name));
  else
    for (const auto& t : task_registry()) ts.push_back(&t);
  std::ostream& human = human_stream(c.json_path, c.capture);
  if (!c.capture.on() && (c.json_path.empty() || !to_stdout(c.json_path))) {
    for (const Task* t : ts) {
      human << t->name << ": " << t->summary << "\n  semantics: " << t->semantics << "\n  params:";
      for (const auto& p : t->params) human << " " << p.name << "=" << p.default_value;
      human << "\n  input:     " << t->input_encoding << "\n  output:    " << t->output_decoding << "\n  domains:\n";
      for (const auto& d : t->domains) human << "    - " << d << "\n";
      human << "  reference: " << t->reference << "\n";
      if (!t->constructions.empty()) {
        human << "  built-ins:";
        for (const auto& k : t->constructions) human << " " << k;
        human << "\n";
      }
      std::string flags;  // the artifact kinds some method checks (Task::methods)
      for (const auto& kind : artifact_kinds())
        if (auto it = t->methods.find(kind); it != t->methods.end() && !it->second.empty())
          flags += (flags.empty() ? "--" : " | --") + kind + " FILE";
      human << "  your file: "
            << (!flags.empty() ? "verify " + flags + " --task " + t->name + (t->operator_file.empty() ? "" : " --operator OP.json") + " [-p ...]" : "not yet (" + t->byo_unsupported + ")")
            << "\n";
      if (!t->operator_file.empty()) human << "  operator:  " << t->operator_file << "\n";  // issue 47 item 3
      // Task::methods, as `verify FILE --task` accepts them ("methods" in --json).
      human << "  methods:  ";
      for (const auto& kind : artifact_kinds()) {
        auto it = t->methods.find(kind);
        human << " " << kind << ": ";
        if (it == t->methods.end() || it->second.empty()) human << "none";
        else
          for (std::size_t m = 0; m < it->second.size(); ++m) human << (m ? "," : "") << it->second[m];
        human << ";";
      }
      human << "\n\n";
    }
  }
  if (json_wanted(c.json_path, c.capture)) {
    nlohmann::json j = nlohmann::json::array();
    for (const Task* t : ts) j.push_back(to_json(*t));
    deliver_json(c.name.empty() ? j : j[0], c.json_path, c.capture);
  }
  return 0;
}

}  // namespace cz::cli
