/** `/terms`: the legal page of `content/legal/terms.md` (`components/LegalPage.tsx`). */
import { LegalPage, legalPageHandler } from "@/components/LegalPage.tsx";

export const handler = legalPageHandler("terms");
export default LegalPage;
