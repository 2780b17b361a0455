#include "cli/commands.h"
namespace cz::cli {
int cmd_claims(const ClaimsOptions&) { return 0; }
}
