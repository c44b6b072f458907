#include <cstdio>
#include <memory>

#include "boneyard/mgs2/strcode.h"
#include "commands.h"

namespace boneyard::cli {

void add_strcode_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("strcode", "Print the MGS2 StrCode24 id of each name (texture names include \".bmp\")");
  auto names = std::make_shared<std::vector<std::string>>();
  cmd->add_option("names", *names, "Names to hash, exactly as written (no lower-casing)")->required();
  cmd->callback([names, &exit_code] {
    for (const auto& n : *names) std::printf("0x%08X  %s\n", mgs2::strcode(n), n.c_str());
    exit_code = kExitOk;
  });
}

}  // namespace boneyard::cli
