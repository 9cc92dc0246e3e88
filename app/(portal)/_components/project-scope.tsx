'use client';

import { Fragment, Suspense, type ReactNode } from 'react';
import { useWorkspaces, type Workspace } from './queries';
import { Empty, ErrorMessage, Loading } from './ui';
import { useUrlSelection } from './url-selection';

export type ProjectInWorkspace = { workspace: Workspace; project: Workspace['projects'][number] };

/**
 * A project picker (`?project=<id>`, the first project by default), grouped by workspace, above
 * whatever the page shows for the chosen project. The page's part is keyed by the project.
 */
export function ProjectScope({ children }: { children: (selected: ProjectInWorkspace) => ReactNode }) {
  return (
    <Suspense fallback={<Loading what="projects" />}>
      <ProjectScopeContent>{children}</ProjectScopeContent>
    </Suspense>
  );
}

function ProjectScopeContent({ children }: { children: (selected: ProjectInWorkspace) => ReactNode }) {
  const workspaces = useWorkspaces();
  const all: ProjectInWorkspace[] = (workspaces.data?.workspaces ?? []).flatMap((workspace) =>
    workspace.projects.map((project) => ({ workspace, project })),
  );
  const selection = useUrlSelection(
    'project',
    all.map((p) => p.project.id),
  );
  if (workspaces.isPending) return <Loading what="projects" />;
  if (workspaces.isError) return <ErrorMessage error={workspaces.error} />;
  const selected = all.find((p) => p.project.id === selection.selectedId);
  if (!selected) return <Empty>You are not a member of a workspace with projects yet. Ask a workspace admin to add you.</Empty>;
  return (
    <>
      <div className="field picker">
        <label htmlFor="project-picker">Project</label>
        <select id="project-picker" value={selected.project.id} onChange={(e) => selection.select(e.target.value)}>
          {workspaces.data.workspaces
            .filter((w) => w.projects.length > 0)
            .map((w) => (
              <optgroup key={w.id} label={w.name}>
                {w.projects.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </optgroup>
            ))}
        </select>
      </div>
      {selection.requestedUnknown && (
        <p className="notice">The project in the link is not one you can see, so {selected.project.name} is shown instead.</p>
      )}
      <Fragment key={selected.project.id}>{children(selected)}</Fragment>
    </>
  );
}
