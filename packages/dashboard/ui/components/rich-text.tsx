import { parseRichText } from "../lib/rich-text.ts";

/**
 * The little Markdown that OpenAPI descriptions use: paragraphs and
 * `inline code`. Built from text nodes only (no innerHTML), so a document
 * can never inject markup into the dashboard.
 */
export function RichText(props: { text: string; class?: string }) {
  const paragraphs = parseRichText(props.text);
  if (paragraphs.length === 0) return null;
  return (
    <div class={props.class ? `rich-text ${props.class}` : "rich-text"}>
      {paragraphs.map((paragraph) => (
        <p key={paragraph.at}>
          {paragraph.parts.map((part) =>
            part.code ? <code key={part.at}>{part.text}</code> : part.text,
          )}
        </p>
      ))}
    </div>
  );
}
