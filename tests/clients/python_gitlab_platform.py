"""Drives the real python-gitlab (Debian python3-gitlab 3.12) against a running Runway.

Environment: RUNWAY_URL (base URL), RUNWAY_TOKEN (a user's `api` token), RUNWAY_MEMBER_ID (another user to
add as a member), RUNWAY_TAG (a unique prefix for names). Prints one JSON object describing what
python-gitlab saw; the vitest side asserts on it. Any exception exits non-zero with a traceback.
"""
import json
import os

import gitlab

url = os.environ["RUNWAY_URL"]
token = os.environ["RUNWAY_TOKEN"]
member_id = int(os.environ["RUNWAY_MEMBER_ID"])
tag = os.environ["RUNWAY_TAG"]

gl = gitlab.Gitlab(url, private_token=token, per_page=2)
gl.auth()
seen = {"user": {"id": gl.user.id, "username": gl.user.username, "type": type(gl.user).__name__}}

# Users: list (filtered) and get.
listed_users = gl.users.list(username=gl.user.username)
member = gl.users.get(member_id)
seen["users"] = {"listed": [u.username for u in listed_users], "member": {"id": member.id, "username": member.username}}

# Groups: create a top-level group, a subgroup and a sub-subgroup; list, get by full path, subgroups.
top = gl.groups.create({"name": f"{tag} Top", "path": f"{tag}-top", "visibility": "private", "description": "made by python-gitlab"})
sub = gl.groups.create({"name": "Platform", "path": "platform", "parent_id": top.id})
gl.groups.create({"name": "CI", "path": "ci", "parent_id": sub.id})
fetched = gl.groups.get(f"{tag}-top/platform")
subgroups = top.subgroups.list(get_all=True)
seen["groups"] = {
    "top": {"id": top.id, "full_path": top.full_path, "visibility": top.visibility, "description": top.description},
    "sub": {"id": sub.id, "full_path": sub.full_path, "parent_id": sub.parent_id, "full_name": sub.full_name},
    "fetched": {"id": fetched.id, "name": fetched.name},
    "subgroups": [g.full_path for g in subgroups],
    "listed": sorted(g.full_path for g in gl.groups.list(search=tag, get_all=True)),
}

# Projects: create five in the subgroup, so a list with per_page=2 spans three pages.
created = [
    gl.projects.create({"name": f"Service {i}", "path": f"{tag}-svc-{i}", "namespace_id": sub.id, "default_branch": "main"})
    for i in range(5)
]
project = gl.projects.get(f"{tag}-top/platform/{tag}-svc-0")
all_projects = gl.projects.list(search=f"{tag}-svc", get_all=True)
lazy = gl.projects.list(search=f"{tag}-svc", iterator=True)
iterated = [p.path for p in lazy]
first_page = gl.projects.list(search=f"{tag}-svc", page=1)
seen["projects"] = {
    "created": [p.path_with_namespace for p in created],
    "get": {"id": project.id, "path_with_namespace": project.path_with_namespace, "namespace": project.namespace["full_path"],
            "default_branch": project.default_branch, "permissions": project.permissions},
    "all": [p.path for p in all_projects],
    "iterated": iterated,
    "iterator_total": lazy.total,
    "iterator_total_pages": lazy.total_pages,
    "first_page": [p.path for p in first_page],
}

# Members: add to the project and the group, then list (direct and all).
project.members.create({"user_id": member_id, "access_level": gitlab.const.DEVELOPER_ACCESS})
top.members.create({"user_id": member_id, "access_level": gitlab.const.REPORTER_ACCESS})
seen["members"] = {
    "project": sorted((m.username, m.access_level) for m in project.members.list(get_all=True)),
    "project_all": sorted((m.username, m.access_level) for m in project.members_all.list(get_all=True)),
    "group": sorted((m.username, m.access_level) for m in top.members.list(get_all=True)),
    "one": project.members.get(member_id).access_level,
}
try:
    project.members.create({"user_id": member_id, "access_level": 30})
    seen["members"]["duplicate"] = None
except gitlab.exceptions.GitlabCreateError as err:
    seen["members"]["duplicate"] = {"code": err.response_code, "message": err.error_message}
try:
    gl.projects.get("no-such-namespace/no-such-project")
    seen["missing"] = None
except gitlab.exceptions.GitlabGetError as err:
    seen["missing"] = {"code": err.response_code, "message": err.error_message}

print(json.dumps(seen))
