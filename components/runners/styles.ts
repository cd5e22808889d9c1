// Form control classes shared by the runner filters and the edit form (same look as the token form).
export const inputClass =
  'block w-full rounded-md border-0 px-3 py-2 outline-none text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-inset focus:ring-indigo-600';
