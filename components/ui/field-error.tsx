// A message under a form field; the field points at it with aria-describedby and sets aria-invalid.
export function FieldError({ id, messages }: { id: string; messages?: string[] | null }) {
  if (!messages?.length) return null;
  return (
    <p id={id} className="text-sm text-red-700">
      {messages.join(' ')}
    </p>
  );
}
