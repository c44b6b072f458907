#include "scene/extras_json.h"

namespace boneyard::scene {

Extras::Extras() noexcept = default;
Extras::~Extras() = default;
Extras::Extras(const Extras& other) : value_(other.value_ ? std::make_unique<Value>(*other.value_) : nullptr) {}
Extras& Extras::operator=(const Extras& other) {
  if (this != &other) value_ = other.value_ ? std::make_unique<Value>(*other.value_) : nullptr;
  return *this;
}
Extras::Extras(Extras&& other) noexcept = default;
Extras& Extras::operator=(Extras&& other) noexcept = default;

bool Extras::empty() const noexcept {
  return !value_ || value_->json.is_null() || (value_->json.is_object() && value_->json.empty());
}

std::string Extras::text() const {
  if (empty()) return {};
  return value_->json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace boneyard::scene
