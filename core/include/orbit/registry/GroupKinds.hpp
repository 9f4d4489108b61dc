#pragma once
// The kinds of transformation group the registry describes (GroupDescriptor, Registry.hpp) and
// makeGroup builds (orbit/groups/Group.hpp). They are named here, below the groups, as the
// learners' and evaluations' kinds are in Registry.hpp: the groups read their descriptors.

namespace orbit {

enum class GroupKind { Rotation, Translation, Scale, Affine, Cyclic, Permutation, Orthogonal };
/// Its registered name: "rotation", "cyclic", ...
const char* toString(GroupKind kind);

/// The orthogonal set's largest sample dimension d (GroupDescriptor::maxDimension; the group
/// refuses a larger one: OrthogonalSetGroup::kMaxDim).
constexpr int kOrthogonalSetMaxDim = 2048;

} // namespace orbit
