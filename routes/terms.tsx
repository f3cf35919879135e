/** `/terms`: the legal page of `content/legal/terms.md` (`components/LegalPage.tsx`). */
import { LegalPage } from "@/components/LegalPage.tsx";
import { legalPageHandler } from "@/lib/http/legal_page.ts";

export const handler = legalPageHandler("terms");
export default LegalPage;
