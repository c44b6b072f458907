// convert()'s keyword arguments, made from the option table (registry/convert_options.h): a row's
// keyword is its name with '_' for '-', and takes the values and passes the checks of the CLI's
// flag. boneyard.convert_options() shows the table itself.
#include "py_convert_options.h"

#include <pybind11/stl.h>

#include <type_traits>
#include <variant>

#include "boneyard/core/paths.h"

namespace boneyard::python {

namespace {

// "'ps2' or 'mc'", "'a', 'b' or 'c'"
std::string quoted_choices(const ConvertOptionRow& row) {
  std::string out;
  for (std::size_t i = 0; i < row.choices.size(); ++i) {
    if (i > 0) out += i + 1 == row.choices.size() ? " or " : ", ";
    out += "'" + std::string(row.choices[i]) + "'";
  }
  return out;
}

// "a, b and c"
std::string and_list(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += i + 1 == words.size() ? " and " : ", ";
    out += words[i];
  }
  return out;
}

[[noreturn]] void unexpected_keyword(const std::string& keyword) {
  std::vector<std::string> opens;
  for (const auto& row : convert_option_rows())
    if (row.opens) opens.push_back(option_keyword(row));
  throw py::type_error("convert() got an unexpected keyword argument '" + keyword + "' (options: " +
                       convert_keywords(false) + "; " + and_list(opens) + " belong to open())");
}

// One keyword's value into its row's field; `given` records it (a flag only when true, globs only
// when there are some, as a flag or an empty list on the command line would be nothing).
void read_keyword(const ConvertOptionRow& row, const py::object& value, ConvertSettings& settings, OptionSet& given) {
  const std::size_t index = convert_option_index(row);
  std::visit(
      [&](auto field) {
        auto& target = settings.*field;
        using T = std::decay_t<decltype(target)>;
        if constexpr (std::is_same_v<T, bool>) {
          target = value.cast<bool>();
          if (target) given.set(index);
        } else if constexpr (std::is_same_v<T, std::string>) {
          // A word, or a text any object gives as str() (a path as a ref name), as the CLI takes
          // its argument's text.
          target = py::isinstance<py::str>(value) ? value.cast<std::string>() : py::str(value).cast<std::string>();
          check_choice(row, target);
          given.set(index);
        } else if constexpr (std::is_same_v<T, std::filesystem::path>) {
          target = path_from_utf8(path_from(value));
          given.set(index);
        } else if constexpr (std::is_same_v<T, double>) {
          target = value.cast<double>();
          if (row.check != nullptr)
            if (auto checked = row.check(target, py::str(value).cast<std::string>()); !checked)
              raise_usage(option_keyword(row) + " " + checked.error().message);
          given.set(index);
        } else {
          target = value.cast<std::vector<std::string>>();
          if (!target.empty()) given.set(index);
        }
      },
      row.field);
}

py::object kind_of(const ConvertOptionRow& row) {
  return std::visit(
      [](auto field) {
        using T = std::decay_t<decltype(ConvertSettings{}.*field)>;
        if constexpr (std::is_same_v<T, bool>) return py::str("flag");
        else if constexpr (std::is_same_v<T, std::string>) return py::str("text");
        else if constexpr (std::is_same_v<T, std::filesystem::path>) return py::str("path");
        else if constexpr (std::is_same_v<T, double>) return py::str("number");
        else return py::str("globs");
      },
      row.field);
}

}  // namespace

void check_choice(const ConvertOptionRow& row, const std::string& word) {
  if (!option_accepts(row, word))
    raise_usage(option_keyword(row) + " must be " + quoted_choices(row) + ", not '" + word + "'");
}

void read_convert_keywords(const py::kwargs& kwargs, bool with_open_rows, ConvertSettings& settings, OptionSet& given) {
  for (const auto& [key, value] : kwargs) {
    const std::string keyword = key.cast<std::string>();
    const ConvertOptionRow* row = nullptr;
    for (const auto& r : convert_option_rows())
      if (option_keyword(r) == keyword) row = &r;
    if (row == nullptr || (row->opens && !with_open_rows)) unexpected_keyword(keyword);
    if (value.is_none()) continue;
    read_keyword(*row, py::reinterpret_borrow<py::object>(value), settings, given);
  }
  for (const auto& row : convert_option_rows()) {
    if (row.excludes.empty()) continue;
    const ConvertOptionRow& other = *find_convert_option(row.excludes);
    if (given.test(convert_option_index(row)) && given.test(convert_option_index(other)))
      raise_usage(option_keyword(other) + " and " + option_keyword(row) + " exclude each other");
  }
}

std::string convert_keywords(bool with_open_rows) {
  std::string out;
  for (const auto& row : convert_option_rows())
    if (with_open_rows || !row.opens) out += (out.empty() ? "" : ", ") + option_keyword(row);
  return out;
}

py::list convert_option_table() {
  py::list out;
  for (const auto& row : convert_option_rows()) {
    py::list reads, choices;
    for (const auto conversion : conversions_reading(row)) reads.append(std::string(conversion));
    for (const auto c : row.choices) choices.append(std::string(c));
    py::dict d;
    d["name"] = std::string(row.name);
    d["flag"] = option_flag(row);
    d["keyword"] = option_keyword(row);
    d["kind"] = kind_of(row);
    d["reads"] = reads;
    d["choices"] = choices;
    d["opens"] = row.opens;
    d["help"] = std::string(row.help);
    out.append(d);
  }
  return out;
}

}  // namespace boneyard::python
