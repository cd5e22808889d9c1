'use client';
// A project's page (/<full_path>): what it is, and the ways into it. CI/CD settings (where its runners are
// managed) are offered to Maintainers and up, and administrators, as GitLab's sidebar does.
import { GitBranch, GitCommitHorizontal, GitMerge, ServerCog, Settings } from 'lucide-react';
import { useCurrentUser } from '../dashboard/session-provider';
import { CommitRow, commitsHref } from '../shared/commit-list';
import { useLastCommit } from './use-namespaces';
import { formatDate } from '../shared/format';
import { MAINTAINER, roleName } from '@/lib/client/access-levels';
import { projectHref } from '@/lib/client/paths';
import { DetailsList } from './details-list';
import { LinkCards, type LinkCard } from './link-cards';
import { NamespaceHeader } from './namespace-header';
import { projectCrumbs, projectNamedPath } from '../ui/breadcrumbs';
import { ProjectLoader } from './project-loader';
import type { ProjectWithAccess } from '@/lib/client/types';

export function ProjectOverview({ fullPath }: { fullPath: string }) {
  return (
    <ProjectLoader fullPath={fullPath} access>
      {(p, level) => <Overview p={p} level={level} />}
    </ProjectLoader>
  );
}

/** `level`: the viewer's effective role, shares included, for "Your role" and the settings links. */
function Overview({ p, level }: { p: ProjectWithAccess; level: number }) {
  const { admin } = useCurrentUser();
  const path = p.path_with_namespace;
  const links: LinkCard[] = [
    {
      href: projectHref(path, 'merge_requests'),
      label: 'Merge requests',
      hint: 'Open, merged and closed merge requests, with their context commits.',
      icon: GitMerge,
    },
    {
      href: p.default_branch ? commitsHref(path, p.default_branch) : projectHref(path, 'commits'),
      label: 'Commits',
      hint: `The history of ${p.default_branch ?? 'the default branch'}.`,
      icon: GitCommitHorizontal,
    },
    { href: projectHref(path, 'branches'), label: 'Branches', hint: 'Every branch of the repository, with its last commit.', icon: GitBranch },
  ];
  if (admin || level >= MAINTAINER) {
    links.push({
      href: projectHref(path, 'edit'),
      label: 'General settings',
      hint: 'Visibility, project features and permissions; merge request settings.',
      icon: Settings,
    });
    links.push({
      href: projectHref(path, 'settings/ci_cd'),
      label: 'CI/CD settings',
      hint: 'Runners available to this project: project, group and instance runners.',
      icon: ServerCog,
    });
  }
  return (
    <div className="flex flex-col gap-6">
      <NamespaceHeader
        kind="Project"
        id={p.id}
        name={p.name}
        description={p.description}
        visibility={p.visibility}
        crumbs={projectCrumbs(projectNamedPath(p))}
      />
      <DetailsList
        items={[
          { term: 'Path', value: <code className="text-xs">{path}</code> },
          { term: 'Default branch', value: p.default_branch ?? <span className="text-slate-500">None (empty repository)</span> },
          { term: 'Your role', value: roleName(level) ?? (admin ? 'Administrator' : 'Not a member') },
          { term: 'Created', value: formatDate(p.created_at) },
        ]}
      />
      {p.default_branch && <LastCommit fullPath={path} branch={p.default_branch} />}
      <section className="flex flex-col gap-3">
        <h2 className="text-base font-semibold text-slate-900">In this project</h2>
        <LinkCards label="Project pages" links={links} />
      </section>
    </div>
  );
}

/** GitLab's project page opens on the default branch's last commit. */
function LastCommit({ fullPath, branch }: { fullPath: string; branch: string }) {
  const last = useLastCommit(fullPath, branch);
  if (!last.data) return null;
  return (
    <section aria-labelledby="last-commit" className="flex flex-col gap-2">
      <h2 id="last-commit" className="text-base font-semibold text-slate-900">
        Last commit on {branch}
      </h2>
      <ul className="overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
        <CommitRow fullPath={fullPath} commit={last.data} />
      </ul>
    </section>
  );
}
