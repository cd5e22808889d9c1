"""The create-update-delete cycle of users and members with the real python-gitlab (Debian python3-gitlab).

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


def error(fn):
    try:
        fn()
    except gitlab.exceptions.GitlabError as e:
        return {"code": e.response_code, "message": e.error_message}
    return None


# Users: create, change through save(), read back, conflicts.
user = gl.users.create({"username": f"{tag}_u", "email": f"{tag}_u@example.com", "name": "Py User", "password": "py-password-123"})
other = gl.users.create({"username": f"{tag}_o", "email": f"{tag}_o@example.com", "name": "Py Other", "password": "py-password-123"})
user.name = "Py User Renamed"
user.bio = "set by python-gitlab"
user.save()
again = gl.users.get(user.id)
seen["user"] = {"name": again.name, "bio": again.bio, "username": again.username}
# python-gitlab 3.12 insists on email, username and name in an update call.
seen["user_conflict"] = error(lambda: gl.users.update(user.id, {"email": f"{tag}_o@example.com", "username": user.username, "name": user.name}))

# Group members: add, update with save(), update by id, list, remove; the last owner stays.
group = gl.groups.create({"name": f"{tag} group", "path": f"{tag}-group"})
member = group.members.create({"user_id": user.id, "access_level": gitlab.const.DEVELOPER_ACCESS})
member.access_level = gitlab.const.MAINTAINER_ACCESS
member.expires_at = "2999-01-01"
member.save()
fetched = group.members.get(user.id)
seen["group_member"] = {"access_level": fetched.access_level, "expires_at": fetched.expires_at}
group.members.update(user.id, {"access_level": gitlab.const.REPORTER_ACCESS})
seen["group_member_updated"] = group.members.get(user.id).access_level
seen["memberships"] = sorted((m.source_type, m.access_level) for m in user.memberships.list(get_all=True))
me = gl.user.id
seen["last_owner_demote"] = error(lambda: group.members.update(me, {"access_level": gitlab.const.MAINTAINER_ACCESS}))
seen["last_owner_delete"] = error(lambda: group.members.delete(me))
group.members.delete(user.id)
seen["group_members_after"] = sorted(m.id for m in group.members.list(get_all=True))
seen["deleted_member"] = error(lambda: group.members.get(user.id))

# Project members in the group's project.
project = gl.projects.create({"name": f"{tag} project", "namespace_id": group.id})
pm = project.members.create({"user_id": other.id, "access_level": gitlab.const.GUEST_ACCESS})
pm.access_level = gitlab.const.DEVELOPER_ACCESS
pm.save()
seen["project_member"] = project.members.get(other.id).access_level
project.members.delete(other.id)
seen["project_members_after"] = [m.id for m in project.members.list(get_all=True)]

# Namespaces.
seen["namespaces"] = [n.full_path for n in gl.namespaces.list(search=f"{tag}-group", get_all=True)]
seen["namespace"] = gl.namespaces.get(group.id).kind

# Users: personal projects, delete (twice), hard delete of a sole group owner.
gl.projects.create({"name": "personal", "path": f"{tag}-personal", "namespace_id": gl.users.get(other.id).attributes.get("namespace_id")})
seen["user_projects"] = [p.path for p in other.projects.list(get_all=True)]
user.delete()
seen["user_deleted"] = error(lambda: gl.users.get(user.id))
seen["user_deleted_again"] = error(lambda: gl.users.delete(user.id))
owner_token = other.personal_access_tokens.create({"name": "py", "scopes": ["api"]}).token
as_other = gitlab.Gitlab(url, private_token=owner_token)
solo = as_other.groups.create({"name": f"{tag} solo", "path": f"{tag}-solo"})
seen["sole_owner"] = error(lambda: gl.users.delete(other.id))
gl.users.delete(other.id, hard_delete=True)
seen["solo_group_after_hard_delete"] = error(lambda: gl.groups.get(solo.id))

print(json.dumps(seen))
