"""The create-update-delete cycle of a group and a project, driven by the real python-gitlab (Debian's
python3-gitlab) against a running Runway: what a setup script or terraform-like tool does.

Environment: RUNWAY_URL, RUNWAY_TOKEN (an `api` token), RUNWAY_TAG (a unique prefix). Prints one JSON
object of what python-gitlab saw; the vitest side asserts on it.
"""
import json
import os

import gitlab

gl = gitlab.Gitlab(os.environ["RUNWAY_URL"], private_token=os.environ["RUNWAY_TOKEN"])
tag = os.environ["RUNWAY_TAG"]
seen = {}


def error_of(call):
    try:
        call()
    except gitlab.exceptions.GitlabError as e:
        return {"code": e.response_code, "message": e.error_message}
    return None


group = gl.groups.create({"name": f"{tag} Group", "path": f"{tag}-group", "visibility": "internal"})
group.name = f"{tag} Renamed"
group.path = f"{tag}-renamed"
group.description = "renamed by python-gitlab"
group.save()
again = gl.groups.get(group.id)
seen["group"] = {"name": again.name, "full_path": again.full_path, "description": again.description}

project = gl.projects.create({"name": f"{tag} Project", "path": f"{tag}-project", "namespace_id": group.id})
project.description = "updated by python-gitlab"
project.shared_runners_enabled = False
project.visibility = "internal"
project.save()
fetched = gl.projects.get(f"{tag}-renamed/{tag}-project")
seen["project"] = {
    "description": fetched.description,
    "shared_runners_enabled": fetched.shared_runners_enabled,
    "visibility": fetched.visibility,
}
seen["project_groups"] = [g.full_path for g in fetched.groups.list(get_all=True)]
seen["bad_visibility"] = error_of(lambda: gl.projects.update(project.id, {"visibility": "public"}))

seen["descendants"] = [g.full_path for g in group.descendant_groups.list(get_all=True)]
gl.projects.delete(project.id)
seen["project_gone"] = error_of(lambda: gl.projects.get(project.id))
group.delete()
seen["group_gone"] = error_of(lambda: gl.groups.get(group.id))
print(json.dumps(seen))
