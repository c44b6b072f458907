// `boneyard convert`: its option flags are made from the option table (registry/convert_options.h)
// and the request is the registry's (registry/convert_request.h); this file only shows what
// comes back, and hands `--recursive` to the batch (cmd_batch.cpp).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <type_traits>
#include <variant>

#include "boneyard/core/paths.h"
#include "boneyard/registry/convert_options.h"
#include "boneyard/registry/convert_request.h"
#include "commands.h"
#include "interrupt_scope.h"

namespace boneyard::cli {

namespace {

// CLI11's check of a number row: the row's own, with the text as written (CLI11's range
// validators would print the largest double in full).
CLI::Validator number_check(const ConvertOptionRow& row) {
  return CLI::Validator(
      [check = row.check](std::string& text) -> std::string {
        double v = std::numeric_limits<double>::quiet_NaN();
        if (!CLI::detail::lexical_cast(text, v)) v = std::numeric_limits<double>::quiet_NaN();
        const Status checked = check(v, text);
        return checked ? std::string() : checked.error().message;
      },
      "");
}

// One row as a flag of `cmd` whose value goes into `settings`.
void add_row_flag(CLI::App& cmd, const ConvertOptionRow& row, ConvertSettings& settings) {
  const std::string flag = option_flag(row);
  const std::string help(row.help);
  CLI::Option* opt = std::visit(
      [&](auto field) -> CLI::Option* {
        auto& value = settings.*field;
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, bool>) return cmd.add_flag(flag, value, help);
        // The argument is UTF-8 (cli_platform.h); CLI11 would convert it with the ANSI code page.
        else if constexpr (std::is_same_v<T, std::filesystem::path>)
          return cmd.add_option_function<std::string>(
              flag, [&value](const std::string& text) { value = path_from_utf8(text); }, help);
        else return cmd.add_option(flag, value, help);
      },
      row.field);
  if (!row.choices.empty()) opt->check(CLI::IsMember(std::vector<std::string>(row.choices.begin(), row.choices.end())));
  if (row.check != nullptr) opt->check(number_check(row));
  if (!row.value_name.empty()) opt->type_name(std::string(row.value_name));
  if (!row.excludes.empty()) opt->excludes(cmd.get_option(option_flag(*find_convert_option(row.excludes))));
}

OptionSet given_convert_options(const CLI::App& cmd) {
  OptionSet given;
  const auto rows = convert_option_rows();
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (cmd.count(option_flag(rows[i])) > 0) given.set(i);
  return given;
}

// `convert --recursive`: the options the batch reads (the table's tree>gltf rows) and the input
// folder checked, then the batch.
int convert_folder(const std::string& in, const std::string& out, unsigned jobs, const ConvertSettings& settings,
                   const OptionSet& given) {
  BatchOptions batch;
  batch.input_dir = path_from_utf8(in);
  batch.output_dir = path_from_utf8(out);
  batch.threads = jobs;
  batch.settings = settings;
  if (auto checked = check_batch_request(batch, given); !checked) {
    std::fprintf(stderr, "%s\n", describe_failure(checked.error(), in).c_str());
    return kExitUsage;
  }
  return run_batch_convert(std::move(batch));
}

// What the request says, as `convert` has always said it: the blocking validation errors and
// what --force did with them, the warnings, then the error that stopped it.
int show_outcome(const std::string& in, const Status& converted, const ConvertOutcome& outcome) {
  for (const auto& f : outcome.blockers) std::fprintf(stderr, "%s\n", format_finding(f, in).c_str());
  if (!outcome.blockers.empty()) {
    const char* plural = outcome.blockers.size() == 1 ? "" : "s";
    if (outcome.blocked) {
      std::fprintf(stderr, "%s: not converted: %zu validation error%s (--force converts anyway)\n", in.c_str(),
                   outcome.blockers.size(), plural);
      return kExitFindings;
    }
    std::fprintf(stderr, "%s: warning: converting despite %zu validation error%s (--force)\n", in.c_str(),
                 outcome.blockers.size(), plural);
  }
  for (const auto& f : outcome.warnings) std::fprintf(stderr, "%s\n", format_finding(f, in).c_str());
  if (converted) return kExitOk;
  std::fprintf(stderr, "%s\n", describe_failure(converted.error(), in).c_str());
  return std::max(exit_code_for(converted.error()), InterruptScope::exit_code());
}

}  // namespace

void add_convert_option_flags(CLI::App& cmd, ConvertSettings& settings) {
  for (const auto& row : convert_option_rows()) add_row_flag(cmd, row, settings);
}

void add_convert_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("convert", "Convert or rewrite a file; the output format follows -o's extension");
  auto in = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto settings = std::make_shared<ConvertSettings>();
  auto recursive = std::make_shared<bool>(false);
  auto jobs = std::make_shared<unsigned>(0);
  cmd->add_option("input", *in, "Input file (a folder with --recursive)")->required();
  cmd->add_option("-o,--output", *out, "Output file (a folder with --recursive)")->required();
  cmd->add_flag("-r,--recursive", *recursive, "X-Ray: convert every .ogf (with its motions) and unreferenced .omf "
                                              "under the input folder to .glb files in the output folder");
  cmd->add_option("-j,--jobs", *jobs, "With --recursive: worker threads (default: all cores)");
  add_convert_option_flags(*cmd, *settings);
  cmd->callback([cmd, in, out, settings, recursive, jobs, &exit_code] {
    InterruptScope interruptible;  // SIGINT/SIGTERM: stop at a safe point, leave no temporary file
    const OptionSet given = given_convert_options(*cmd);
    if (*recursive) {
      exit_code = std::max(exit_code, convert_folder(*in, *out, *jobs, *settings, given));
      return;
    }
    if (cmd->count("--jobs") > 0) {
      std::fprintf(stderr, "--jobs applies only with --recursive\n");
      exit_code = kExitUsage;
      return;
    }
    ConvertOptions request;
    request.input = path_from_utf8(*in);
    request.output = path_from_utf8(*out);
    request.settings = *settings;
    request.given = given;
    if (auto files = check_request_files(request); !files) {
      std::fprintf(stderr, "%s\n", describe_failure(files.error(), *in).c_str());
      exit_code = kExitUsage;
      return;
    }
    const CommonOptions open{settings->input_layout, path_to_utf8(settings->names), settings->allow_outside_uris};
    auto doc = open_or_report(*in, open, exit_code);
    if (!doc) return;
    ConvertOutcome outcome;
    const Status converted = convert_request(*doc, request, outcome);
    exit_code = std::max(exit_code, show_outcome(*in, converted, outcome));
  });
}

}  // namespace boneyard::cli
