// XML documents written as text by the W3C DOM serializer (@oozcitak/dom, the DOM that xmlbuilder2 builds on), which
// escapes every "&", "<" and ">" of a text and every "&", "<", '"' of an attribute, whatever follows. xmlbuilder2's own
// writer leaves "&name;" as it finds it, so a note "Price in &euro;" made an XML that no parser reads and "R&amp;D"
// reached the receiver as "R&D" (issue 24, finding 3). Tabs and line breaks in an attribute (a file name made of
// the document number) become spaces, as a reader's attribute-value normalization would make them anyway.
// Owns the serialization only; must not build or change the tree.
import { XMLSerializer } from '@oozcitak/dom';
import type { Element, Node } from '@oozcitak/dom/lib/dom/interfaces';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/** The document `builder` belongs to, as UTF-8 XML text with its declaration. */
export function xmlText(builder: XMLBuilder): string {
  const doc = builder.doc().node as unknown as Node;
  for (const element of elements(doc)) {
    for (const attr of Array.from(element.attributes)) {
      if (/[\t\n\r]/.test(attr.value)) attr.value = attr.value.replace(/[\t\n\r]+/g, ' ');
    }
  }
  return DECLARATION + new XMLSerializer().serializeToString(doc);
}

function* elements(node: Node): Generator<Element> {
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 1) {
      yield child as Element;
      yield* elements(child);
    }
  }
}
