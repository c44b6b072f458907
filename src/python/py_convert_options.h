// convert()'s keyword arguments, made from the option table (registry/convert_options.h).
#pragma once

#include <string>

#include "boneyard/registry/convert_options.h"
#include "python_support.h"

namespace boneyard::python {

// The keyword arguments of convert() into `settings`, each a row of the option table (the rows
// that open the input, input_layout, names and allow_outside_uris, only `with_open_rows`: the
// module's convert(), which opens its input). None is not given. TypeError for an unknown
// keyword, UsageError for a value its row refuses or for options that exclude each other.
void read_convert_keywords(const py::kwargs& kwargs, bool with_open_rows, ConvertSettings& settings, OptionSet& given);

// UsageError unless `word` is one of the row's choices ("layout must be 'ps2' or 'mc', not 'x'").
void check_choice(const ConvertOptionRow& row, const std::string& word);

// "layout, skeleton, ...": the keywords, for messages and docstrings.
std::string convert_keywords(bool with_open_rows);

// boneyard.convert_options(): one dict per row (name, flag, keyword, kind, reads, choices, opens, help).
py::list convert_option_table();

}  // namespace boneyard::python
