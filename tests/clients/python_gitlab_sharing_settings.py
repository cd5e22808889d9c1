"""python-gitlab's functional cases for group sharing, namespace existence and settings round-trips, with the
real python-gitlab (Debian python3-gitlab) against Runway, as its tests/functional/api do them.

Environment: RUNWAY_URL, RUNWAY_ADMIN_TOKEN (an admin's `api` token), RUNWAY_TAG (a unique prefix).
Prints one JSON object describing what python-gitlab saw; the vitest side asserts on it.
"""
import json
import os

import gitlab

url = os.environ["RUNWAY_URL"]
tag = os.environ["RUNWAY_TAG"]
gl = gitlab.Gitlab(url, private_token=os.environ["RUNWAY_ADMIN_TOKEN"])
gl.auth()
seen = {}

# test_groups.py: share and unshare a group.
group1 = gl.groups.create({"name": f"{tag} one", "path": f"{tag}-one"})
group4 = gl.groups.create({"name": f"{tag} four", "path": f"{tag}-four"})
group1.share(group4.id, gitlab.const.DEVELOPER_ACCESS)
group1 = gl.groups.get(group1.id)
seen["group_shared"] = [(g["group_id"], g["group_access_level"]) for g in group1.shared_with_groups]
group1.unshare(group4.id)
seen["group_unshared"] = gl.groups.get(group1.id).shared_with_groups
try:
    group1.unshare(group4.id)
except gitlab.exceptions.GitlabDeleteError as e:
    seen["group_unshare_again"] = {"code": e.response_code, "message": e.error_message}

# test_projects.py: share and unshare a project.
project = gl.projects.create({"name": f"{tag}-proj", "namespace_id": group1.id})
project.share(group4.id, gitlab.const.MAINTAINER_ACCESS, expires_at="2999-01-01")
project = gl.projects.get(project.id)
seen["project_shared"] = project.shared_with_groups
project.unshare(group4.id)
seen["project_unshared"] = gl.projects.get(project.id).shared_with_groups

# test_namespaces.py: existence of a user's and a group's namespace, and of none.
user = gl.users.create({"username": f"{tag}_u", "email": f"{tag}_u@example.com", "name": "Py Settings", "password": "py-password-123"})
seen["exists_user"] = gl.namespaces.exists(user.username).exists
found = gl.namespaces.exists(group1.path)
seen["exists_group"] = {"exists": found.exists, "suggests": found.suggests}
seen["exists_none"] = gl.namespaces.exists(f"{tag}-doesnt-exist").exists
sub = gl.groups.create({"name": "sub", "path": "sub", "parent_id": group1.id})
seen["exists_under_parent"] = gl.namespaces.exists("sub", parent_id=group1.id).exists

# Group settings through save(): written, then read back as written.
group1.request_access_enabled = False
group1.project_creation_level = "maintainer"
group1.subgroup_creation_level = "owner"
group1.share_with_group_lock = True
group1.default_branch_protection = 1
group1.lfs_enabled = False
group1.emails_enabled = False
group1.mentions_disabled = True
group1.require_two_factor_authentication = True
group1.two_factor_grace_period = 24
group1.auto_devops_enabled = False
group1.description = "set by python-gitlab"
group1.save()
again = gl.groups.get(group1.id)
keys = ["request_access_enabled", "project_creation_level", "subgroup_creation_level", "share_with_group_lock", "default_branch_protection",
        "lfs_enabled", "emails_enabled", "emails_disabled", "mentions_disabled", "require_two_factor_authentication", "two_factor_grace_period",
        "auto_devops_enabled", "description"]
seen["group_settings"] = {k: getattr(again, k) for k in keys}

# User settings through save().
user.projects_limit = 3
user.can_create_group = False
user.external = True
user.bio = "bio"
user.location = "Porto"
user.website_url = "https://example.com"
user.pronouns = "they/them"
user.private_profile = True
user.note = "admin note"
user.theme_id = 2
user.save()
again = gl.users.get(user.id)
keys = ["projects_limit", "can_create_group", "external", "bio", "location", "website_url", "pronouns", "private_profile", "note", "theme_id"]
seen["user_settings"] = {k: getattr(again, k) for k in keys}

print(json.dumps(seen))
