#pragma once
// The kinds of transformation group the registry describes (GroupDescriptor, Registry.hpp) and
// makeGroup builds (orbit/groups/Group.hpp). They are named here, below the groups, as the
// learners' and evaluations' kinds are in Registry.hpp: the groups read their descriptors.

namespace orbit {

/// The built-in groups' kinds; a group registered outside the core (registerGroup) gets a value of
/// its own from kFirstRegisteredGroupKind on, without a name here.
enum class GroupKind { Rotation, Translation, Scale, Affine, Cyclic, Permutation, Orthogonal };
constexpr int kFirstRegisteredGroupKind = 64;
/// Its registered name: "rotation", "cyclic", ...
const char* toString(GroupKind kind);

/// The orthogonal set's largest sample dimension d (GroupDescriptor::maxDimension; the group
/// refuses a larger one: OrthogonalSetGroup::kMaxDim).
constexpr int kOrthogonalSetMaxDim = 2048;

} // namespace orbit
