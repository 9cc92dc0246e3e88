'use client';

import { Suspense, type ReactNode } from 'react';
import { Options } from './form-fields';
import { useWorkspaces, type Workspace } from './queries';
import { ScopePicker } from './scope-picker';
import { Empty, ErrorMessage, Loading } from './ui';
import { useHydrated } from './use-hydrated';
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
  const hydrated = useHydrated();
  if (!hydrated || workspaces.isPending) return <Loading what="projects" />;
  if (workspaces.isError) return <ErrorMessage error={workspaces.error} />;
  const selected = all.find((p) => p.project.id === selection.selectedId);
  if (!selected) return <Empty>You are not a member of a workspace with projects yet. Ask a workspace admin to add you.</Empty>;
  return (
    <ScopePicker
      noun="project"
      label="Project"
      selection={selection}
      selected={{ id: selected.project.id, name: selected.project.name }}
      options={workspaces.data.workspaces
        .filter((w) => w.projects.length > 0)
        .map((w) => (
          <optgroup key={w.id} label={w.name}>
            <Options choices={w.projects.map((p) => ({ id: p.id, label: p.name }))} />
          </optgroup>
        ))}
    >
      {children(selected)}
    </ScopePicker>
  );
}
