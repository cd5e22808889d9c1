"""Drives the real python-gitlab (Debian python3-gitlab 3.12) against Runway's runner admin API.

Environment: RUNWAY_URL, RUNWAY_ADMIN_TOKEN, RUNWAY_OWNER_TOKEN (owner of the group), RUNWAY_GROUP_ID,
RUNWAY_PROJECT_ID, RUNWAY_PROJECT2_ID, RUNWAY_TAG (tag carried by this test's runners), RUNWAY_JOBS_RUNNER
(a runner with jobs). Prints one JSON object of what python-gitlab saw; the vitest side asserts on it.
"""
import json
import os

import gitlab

env = os.environ
url = env["RUNWAY_URL"]
tag = env["RUNWAY_TAG"]
admin = gitlab.Gitlab(url, private_token=env["RUNWAY_ADMIN_TOKEN"], per_page=2)
owner = gitlab.Gitlab(url, private_token=env["RUNWAY_OWNER_TOKEN"], per_page=2)
seen = {}

# Lists, following the Link header page by page (per_page=2).
seen["all"] = [r.id for r in admin.runners.all(tag_list=[tag], get_all=True)]
seen["all_projects"] = [r.id for r in admin.runners.all(type="project_type", tag_list=tag, get_all=True)]
# RunnerManager.all() always builds a list; the lazy iterator comes from http_list (GitlabList).
it = admin.http_list("/runners/all", query_data={"tag_list": tag}, iterator=True)
seen["iterated"] = [r["id"] for r in it]
seen["iterator_total"] = it.total
seen["owned"] = [r.id for r in owner.runners.list(tag_list=tag, get_all=True)]
seen["owned_status"] = [r.status for r in owner.runners.list(tag_list=tag, status="never_contacted", get_all=True)]

# Details, update (save sends only the changed attributes), pause.
runner = owner.runners.get(int(env["RUNWAY_PROJECT_RUNNER"]))
seen["get"] = {"id": runner.id, "runner_type": runner.runner_type, "tag_list": runner.tag_list, "projects": [p["id"] for p in runner.projects]}
runner.description = "updated by python-gitlab"
runner.tag_list = [tag, "py"]
runner.save()
runner.paused = True
runner.save()
again = owner.runners.get(runner.id)
seen["updated"] = {"description": again.description, "tag_list": again.tag_list, "paused": again.paused, "active": again.active}

# Project runners: list, enable in a second project, disable.
project = owner.projects.get(int(env["RUNWAY_PROJECT_ID"]))
project2 = owner.projects.get(int(env["RUNWAY_PROJECT2_ID"]))
seen["project_runners"] = [r.id for r in project.runners.list(type="project_type", get_all=True)]
enabled = project2.runners.create({"runner_id": runner.id})
seen["enabled"] = {"id": enabled.id, "runner_type": enabled.runner_type}
seen["after_enable"] = [p["id"] for p in owner.runners.get(runner.id).projects]
project2.runners.delete(runner.id)
seen["after_disable"] = [p["id"] for p in owner.runners.get(runner.id).projects]

# Group runners.
group = owner.groups.get(int(env["RUNWAY_GROUP_ID"]))
seen["group_runners"] = [r.id for r in group.runners.list(type="group_type", get_all=True)]

# Jobs of a runner, across pages.
jobs_runner = admin.runners.get(int(env["RUNWAY_JOBS_RUNNER"]))
seen["jobs"] = [j.id for j in jobs_runner.jobs.list(get_all=True)]
seen["jobs_failed"] = [j.status for j in jobs_runner.jobs.list(status="failed", get_all=True)]

# Errors surface as python-gitlab exceptions with GitLab's status.
try:
    owner.runners.get(999999999)
except gitlab.exceptions.GitlabGetError as e:
    seen["missing"] = e.response_code

# Delete.
owner.runners.delete(int(env["RUNWAY_DELETE_RUNNER"]))
try:
    admin.runners.get(int(env["RUNWAY_DELETE_RUNNER"]))
except gitlab.exceptions.GitlabGetError as e:
    seen["deleted"] = e.response_code

print(json.dumps(seen))
